package imgproc

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"featurelab/internal/atomicfile"
)

// regularFS is a folder on disk, like os.DirFS(dir), whose Open opens only regular
// files: it opens without waiting (O_NONBLOCK, so a FIFO with no writer does not block)
// and checks what it opened on the descriptor itself, so a FIFO or device swapped in for
// a file after the folder was listed is refused, not read for ever. Unlike os.DirFS it
// takes names as the file system has them: a name that is not UTF-8 (a Latin-1 "café"
// from an old camera or archive) opens by its bytes instead of failing fs.ValidPath.
type regularFS struct {
	dir string
}

// dirFS is the file system the loaders read a folder on disk through.
func dirFS(dir string) fs.FS { return regularFS{dir: dir} }

// NotRegularError is the cause of an open OpenRegular refused: what the file turned out
// to be.
type NotRegularError struct{ Kind string }

func (e NotRegularError) Error() string { return "not a regular file but " + e.Kind }

// Stat looks at a file without opening it, as a listing does.
func (r regularFS) Stat(name string) (fs.FileInfo, error) {
	path, err := r.path("stat", name)
	if err != nil {
		return nil, err
	}
	return os.Stat(path)
}

// ReadDir lists a folder, sorted by name.
func (r regularFS) ReadDir(name string) ([]fs.DirEntry, error) {
	path, err := r.path("readdir", name)
	if err != nil {
		return nil, err
	}
	return os.ReadDir(path)
}

// Open opens name for reading if it is a regular file (or a folder).
func (r regularFS) Open(name string) (fs.File, error) {
	path, err := r.path("open", name)
	if err != nil {
		return nil, err
	}
	f, err := OpenRegular(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = name
		}
		return nil, err
	}
	return f, nil
}

// OpenRegular opens path for reading if it is a regular file (or a folder, to list):
// without waiting, so a FIFO with no writer does not block, and checked on the open
// descriptor, so a FIFO or device put in its place after a listing is refused too, with
// an *fs.PathError whose cause says what it is.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if m := st.Mode(); !m.IsRegular() && !m.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: NotRegularError{FileKind(m)}}
	}
	return f, nil
}

// FileKind names what a file that is not a regular file is, for a refusal: "a FIFO
// (named pipe)", "a character device", "a folder"… (atomicfile.Kind, which the writers'
// refusals use too).
func FileKind(m fs.FileMode) string { return atomicfile.Kind(m) }

// path is name's place on disk, for a name that stays inside the folder: fs.ValidPath's
// rules (slash-separated, unrooted, no "." or ".." element but the folder itself) save
// that names need not be UTF-8.
func (r regularFS) path(op, name string) (string, error) {
	if name != "." {
		for _, elem := range strings.Split(name, "/") {
			if elem == "" || elem == "." || elem == ".." || strings.ContainsRune(elem, 0) {
				return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
			}
		}
	}
	return filepath.Join(r.dir, filepath.FromSlash(name)), nil
}
