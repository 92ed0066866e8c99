package imgproc

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// regularFS is os.DirFS(dir) whose Open opens only regular files: it opens without
// waiting (O_NONBLOCK, so a FIFO with no writer does not block) and checks what it
// opened on the descriptor itself, so a FIFO or device swapped in for a file after the
// folder was listed is refused, not read for ever.
type regularFS struct {
	fs.FS
	dir string
}

// dirFS is the file system the loaders read a folder on disk through.
func dirFS(dir string) fs.FS { return regularFS{FS: os.DirFS(dir), dir: dir} }

// NotRegularError is the cause of an open OpenRegular refused: what the file turned out
// to be.
type NotRegularError struct{ Kind string }

func (e NotRegularError) Error() string { return "not a regular file but " + e.Kind }

// Stat is os.DirFS's: a listing's look at a file opens nothing.
func (r regularFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(r.FS, name) }

// ReadDir is os.DirFS's.
func (r regularFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(r.FS, name) }

// Open opens name for reading if it is a regular file.
func (r regularFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := OpenRegular(filepath.Join(r.dir, filepath.FromSlash(name)))
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
// (named pipe)", "a character device", "a folder"….
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
