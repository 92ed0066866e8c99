package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
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
