package imgproc

import (
	"errors"
	"fmt"
	"image"
	"io/fs"
	"os"
	"path/filepath"
)

// Open decodes one picture of fsys the way the folder loader does: recognised by content,
// EXIF orientation applied, the pixel budget (0 = DefaultMaxPixels) checked from the
// header before any pixel is decoded. The error says why the file is not usable.
func Open(fsys fs.FS, name string, maxPixels int64) (image.Image, error) {
	return open(fsys, name, name, maxPixels)
}

// OpenFile is Open for a file on disk, named by its path in the messages.
func OpenFile(path string, maxPixels int64) (image.Image, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no such file", path)
	case err != nil:
		return nil, err
	case st.IsDir():
		return nil, fmt.Errorf("%s: a folder, not an image", path)
	}
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	return open(dirFS(dir), name, path, maxPixels)
}

// open decodes file of fsys, calling it label in the error.
func open(fsys fs.FS, file, label string, maxPixels int64) (image.Image, error) {
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	d := decodeFile(fsys, file, label, maxPixels, nil, &buffers{})
	if d.skip != "" {
		return nil, fmt.Errorf("%s: %s", label, d.skip)
	}
	return d.img, nil
}
