package imgproc

import (
	"fmt"
	"image"
	"image/png"
	"os"
)

// LabelMap is a segmentation stored as a picture: each pixel's value is its segment's
// label, as in the human segmentations of BSDS500 (16-bit grey PNG) and the labels.png
// `featurelab segment` writes.
type LabelMap struct {
	Width, Height int
	Labels        []int32 // row-major
}

// ReadLabelMap reads a grey PNG (8 or 16 bits a sample) whose values are labels. A colour
// picture is refused: its pixels are colours, not labels, and reading them as grey
// would join segments of equal brightness.
func ReadLabelMap(path string) (*LabelMap, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("label map %s: %w", path, err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("label map %s: %w", path, err)
	}
	b := img.Bounds()
	m := &LabelMap{Width: b.Dx(), Height: b.Dy(), Labels: make([]int32, b.Dx()*b.Dy())}
	switch g := img.(type) {
	case *image.Gray16:
		for y := range m.Height {
			for x := range m.Width {
				m.Labels[y*m.Width+x] = int32(g.Gray16At(b.Min.X+x, b.Min.Y+y).Y)
			}
		}
	case *image.Gray:
		for y := range m.Height {
			copy32(m.Labels[y*m.Width:(y+1)*m.Width], g.Pix[y*g.Stride:y*g.Stride+m.Width])
		}
	default:
		kind := "a PNG in colour or with transparency"
		if _, ok := img.(*image.Paletted); ok {
			kind = "a paletted PNG"
		}
		return nil, fmt.Errorf("label map %q: %s, not a grey PNG of labels (8 or 16 bits, a label per pixel)", path, kind)
	}
	return m, nil
}

// copy32 widens 8-bit labels.
func copy32(dst []int32, src []uint8) {
	for i, v := range src {
		dst[i] = int32(v)
	}
}
