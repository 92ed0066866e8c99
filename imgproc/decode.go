package imgproc

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // register the decoders image.Decode sniffs for
	_ "image/jpeg"
	_ "image/png"
	"io/fs"

	"github.com/disintegration/imaging"
	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
)

// decodeFile reads one file and decodes it if it is a usable image; otherwise it says why
// not in skip. A decoder that panics on hostile input becomes a skip too.
func decodeFile(fsys fs.FS, full, name string, budget int64) (d decoded) {
	d.name = name
	defer func() {
		if r := recover(); r != nil {
			d.img, d.skip = nil, fmt.Sprintf("corrupt image (decoder failed: %v)", r)
		}
	}()
	data, err := fs.ReadFile(fsys, full)
	if err != nil {
		d.skip = "unreadable: " + err.Error()
		return d
	}
	if len(data) == 0 {
		d.skip = "empty file"
		return d
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		if errors.Is(err, image.ErrFormat) {
			d.skip = "not an image"
		} else {
			d.skip = "corrupt image header: " + err.Error()
		}
		return d
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > budget || cfg.Width <= 0 || cfg.Height <= 0 {
		d.skip = fmt.Sprintf("%d×%d pixels exceeds the %d MP budget", cfg.Width, cfg.Height, budget/1_000_000)
		return d
	}
	var img image.Image
	if format == "jpeg" {
		img, err = imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
	} else {
		img, _, err = image.Decode(bytes.NewReader(data))
	}
	if err != nil {
		d.skip = fmt.Sprintf("corrupt %s: %v", format, err)
		return d
	}
	d.img, d.colour = img, isColour(img)
	return d
}

// isColour says whether a decoded picture has colour channels worth keeping.
func isColour(img image.Image) bool {
	switch m := img.(type) {
	case *image.Gray, *image.Gray16:
		return false
	case *FloatImage:
		return m.Channels == 3
	case *image.Paletted:
		for _, c := range m.Palette {
			r, g, b, _ := c.RGBA()
			if r != g || g != b {
				return true
			}
		}
		return false
	}
	return img.ColorModel() != color.GrayModel && img.ColorModel() != color.Gray16Model
}
