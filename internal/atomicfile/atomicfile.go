package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ErrExists is returned by an export that would overwrite a file it was told to keep.
var ErrExists = errors.New("file exists")

// ErrNotMine is returned by a write that would replace a file the program did not write
// (one its Mine does not recognise): an input image, a user's own file of the same name.
var ErrNotMine = errors.New("not a file Feature Lab wrote")

// ErrNotRegular is returned by a write whose path is a folder, a FIFO, a device or a
// socket: only regular files are ever replaced.
var ErrNotRegular = errors.New("not a regular file")

// Mine reports whether the file r reads (its first bytes are enough) is one the program
// wrote, and so one a later run may replace.
type Mine func(r io.Reader) bool

// AnyFile is the Mine of an export the user confirmed: any regular file may be replaced.
func AnyFile(io.Reader) bool { return true }

// Write writes a file through a temporary file in the same folder and a rename, so
// a reader never sees half a file and a failed export leaves the old file intact. With
// overwrite false an existing file is an ErrExists error; with it true any regular file
// there is replaced (WriteOver with AnyFile).
func Write(path string, overwrite bool, write func(w io.Writer) error) error {
	var mine Mine
	if overwrite {
		mine = AnyFile
	}
	return WriteOver(path, mine, write)
}

// WriteOver is Write that replaces a file already at path only when it is a regular file
// mine recognises; nil mine replaces nothing. A symbolic link at path is followed, so the
// file it leads to is the one checked and replaced, never the link by a file. Its errors
// name path, never the temporary file.
func WriteOver(path string, mine Mine, write func(w io.Writer) error) error {
	target, err := resolve(path, mine)
	if err != nil {
		return err
	}
	dir, prefix := filepath.Dir(target), tempPrefix(filepath.Base(target))
	removeStale(dir, prefix)
	tmp, err := os.CreateTemp(dir, prefix+strconv.Itoa(os.Getpid())+".*.tmp")
	if err != nil {
		return named(path, err)
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	// CreateTemp makes the file 0600; an export is for sharing, and other programs and
	// users expect it readable, as a file the user saved.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return named(path, err)
	}
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		tmp.Close()
		return named(path, err)
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return named(path, err)
	}
	if err := tmp.Close(); err != nil {
		return named(path, err)
	}
	if mine == nil {
		// Link fails if the name appeared meanwhile, which a rename would clobber.
		if err := os.Link(tmp.Name(), target); err != nil {
			if os.IsExist(err) {
				return fmt.Errorf("%q: %w", path, ErrExists)
			}
			return named(path, err)
		}
		return nil
	}
	if _, err := resolve(target, mine); err != nil {
		return err // something else took the name while the file was written
	}
	return named(path, os.Rename(tmp.Name(), target))
}

// Check says why WriteOver(path, mine, …) would be refused, before any work is done for
// it: a folder that does not exist or cannot be written in, a path that is a folder or a
// device, a file mine does not recognise (ErrNotMine, ErrNotRegular, ErrExists).
func Check(path string, mine Mine) error {
	target, err := resolve(path, mine)
	if err != nil {
		return err
	}
	dir := filepath.Dir(target)
	probe, err := os.CreateTemp(dir, tempPrefix(filepath.Base(target))+strconv.Itoa(os.Getpid())+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write in %q: %w", filepath.Dir(path), Cause(err))
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// CheckFolder says why the files named, each with what recognises it (WriteOver), could
// not be written into the folder dir, before any work is done for them: dir is a file,
// or cannot be made, or one of the files may not be replaced (Check). A dir that does
// not exist yet passes when the nearest folder above it exists.
func CheckFolder(dir string, files map[string]Mine) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		for up := filepath.Dir(dir); ; up = filepath.Dir(up) {
			if st, err := os.Stat(up); err == nil {
				if !st.IsDir() {
					return fmt.Errorf("output folder %q cannot be made: %q is %s", dir, up, Kind(st.Mode()))
				}
				return nil
			} else if !errors.Is(err, fs.ErrNotExist) || up == filepath.Dir(up) {
				return fmt.Errorf("output folder %q: %w", dir, Cause(err))
			}
		}
	case err != nil:
		return fmt.Errorf("output folder %q: %w", dir, Cause(err))
	case !st.IsDir():
		return fmt.Errorf("output folder %q is %s, not a folder", dir, Kind(st.Mode()))
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names) // the same refusal every time
	for _, name := range names {
		if err := Check(filepath.Join(dir, name), files[name]); err != nil {
			return err
		}
	}
	return nil
}

// resolve is the file a write to path lands on — path itself, or the file a symbolic
// link there leads to — or the error that refuses the write: a missing folder, a path
// that is not a regular file, a file mine does not accept.
func resolve(path string, mine Mine) (string, error) {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(path)
		if st, err := os.Stat(dir); err != nil {
			return "", fmt.Errorf("%q: the folder %q: %w", path, dir, Cause(err))
		} else if !st.IsDir() {
			return "", fmt.Errorf("%q: %q is not a folder", path, dir)
		}
		return path, nil
	} else if err != nil {
		return "", named(path, err)
	}
	target := path
	if st.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", fmt.Errorf("%q is a symbolic link to a file that cannot be reached: %w", path, Cause(err))
		}
		if st, err = os.Lstat(target); err != nil {
			return "", named(path, err)
		}
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%q is %s: %w; nothing was written", path, Kind(st.Mode()), ErrNotRegular)
	}
	if mine == nil {
		return "", fmt.Errorf("%q: %w", path, ErrExists)
	}
	f, err := os.Open(target)
	if err != nil {
		return "", named(path, err)
	}
	ok := mine(f)
	f.Close()
	if !ok {
		return "", fmt.Errorf("%q is %w, so it is left as it is: choose another name or folder", path, ErrNotMine)
	}
	return target, nil
}

// Kind names what a file is, for a refusal: "a file" (a regular one), "a folder", "a
// FIFO (named pipe)", "a character device"….
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a file"
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
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

// named is err about path: the user's name in front of the system's cause, without the
// operation and the temporary file's name an *fs.PathError or *os.LinkError carries.
func named(path string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%q: %w", path, Cause(err))
}

// Cause is err without the file names of an *fs.PathError or *os.LinkError wrapped in
// it: what went wrong, for a message that names the user's path itself rather than a
// temporary file or the operation.
func Cause(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// tempPrefix starts the names of name's temporary files: hidden, then the name, then the
// writing process's ID (".boundaries.png.4242.123456.tmp"), so that a later export can
// tell a file left by a killed process from one still being written.
func tempPrefix(name string) string { return "." + name + "." }

// removeStale removes the temporary files a process killed mid-export (kill -9, a power
// cut) left beside the file: those whose writer is gone. A writer still running keeps
// its file — 75 exports to one folder at once must all finish.
func removeStale(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // the export itself will say what is wrong with the folder
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !strings.HasSuffix(rest, ".tmp") || !e.Type().IsRegular() {
			continue
		}
		pid, _, ok := strings.Cut(rest, ".")
		if n, err := strconv.Atoi(pid); ok && err == nil && n > 0 && gone(n) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
