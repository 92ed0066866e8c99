package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrExists is returned by an export that would overwrite a file it was told to keep.
var ErrExists = errors.New("file exists")

// Write writes a file through a temporary file in the same folder and a rename, so
// a reader never sees half a file and a failed export leaves the old file intact. With
// overwrite false an existing file is an ErrExists error.
func Write(path string, overwrite bool, write func(w io.Writer) error) error {
	if !overwrite {
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("%s: %w", path, ErrExists)
		}
	}
	dir, prefix := filepath.Dir(path), tempPrefix(filepath.Base(path))
	removeStale(dir, prefix)
	tmp, err := os.CreateTemp(dir, prefix+strconv.Itoa(os.Getpid())+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	// CreateTemp makes the file 0600; an export is for sharing, and other programs and
	// users expect it readable, as a file the user saved.
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !overwrite {
		// Link fails if the name appeared meanwhile, which a rename would clobber.
		if err := os.Link(tmp.Name(), path); err != nil {
			if os.IsExist(err) {
				return fmt.Errorf("%s: %w", path, ErrExists)
			}
			return err
		}
		return nil
	}
	return os.Rename(tmp.Name(), path)
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
