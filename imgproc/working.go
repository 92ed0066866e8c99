package imgproc

import (
	"image"
	"math"

	"github.com/disintegration/imaging"
)

// DefaultWorkingPixels is the working budget: a picture with more pixels than this is
// reduced, as soon as it is decoded, to this many pixels at its own aspect ratio, unless
// Options sets the size. 76 800 is 320×240, the size of the MAD-Bayes tabletop photos:
// a 12-megapixel camera photo (4000×3000) becomes 320×240, and 1 000 of them take 1.8 GB
// as float64 rows, where at full size one would take 288 MB.
const DefaultWorkingPixels = 76_800

// workingSize is the size a picture of the upright size size is kept at: size itself when
// it has at most budget pixels; otherwise the requested size want when one is given, and
// else size scaled by √(budget / pixels), so the aspect ratio stays and the area is at
// most budget.
func workingSize(size, want image.Point, budget int64) image.Point {
	px := int64(size.X) * int64(size.Y)
	if px <= budget {
		return size
	}
	if want.X > 0 && want.Y > 0 {
		if int64(want.X)*int64(want.Y) >= px {
			return size
		}
		return want
	}
	s := math.Sqrt(float64(budget) / float64(px))
	w := max(1, int(math.Round(float64(size.X)*s)))
	h := max(1, int(math.Round(float64(size.Y)*s)))
	for int64(w)*int64(h) > budget {
		if w >= h {
			w--
		} else {
			h--
		}
	}
	return image.Pt(w, h)
}

// ShrinkTo returns img reduced by area averaging (shrink) to at most budget pixels at its
// own aspect ratio, the size the loader gives a picture over its budget; img itself when
// it fits.
func ShrinkTo(img image.Image, budget int64) image.Image {
	size := img.Bounds().Size()
	if to := workingSize(size, image.Point{}, budget); to != size {
		return shrink(img, to.X, to.Y)
	}
	return img
}

// shrink reduces img to w×h by averaging the source pixels each output pixel covers (a box
// filter stretched by the reduction factor), which does not alias however large the
// factor. Float pictures (PFM) keep their samples; others go through 8-bit NRGBA, the
// depth of camera photos.
func shrink(img image.Image, w, h int) image.Image {
	if f, ok := img.(*FloatImage); ok {
		src := make([]float64, f.W*f.H*f.Channels)
		toVector(f, f.Channels, src)
		dst := make([]float64, w*h*f.Channels)
		resampleWith(src, f.W, f.H, f.Channels, dst, w, h, false, imaging.Box)
		out := NewFloatImage(w, h, f.Channels)
		for i, v := range dst {
			out.Pix[i] = float32(v)
		}
		return out
	}
	return boxResize(img, w, h)
}
