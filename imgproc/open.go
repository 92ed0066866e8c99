package imgproc

import (
	"fmt"
	"image"
	"io/fs"
)

// Open decodes one picture of fsys the way the folder loader does: recognised by content,
// EXIF orientation applied, the pixel budget (0 = DefaultMaxPixels) checked from the
// header before any pixel is decoded. The error says why the file is not usable.
func Open(fsys fs.FS, name string, maxPixels int64) (image.Image, error) {
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	d := decodeFile(fsys, name, name, maxPixels)
	if d.skip != "" {
		return nil, fmt.Errorf("%s: %s", name, d.skip)
	}
	return d.img, nil
}
