package segment

import (
	"image"
	"math"

	"github.com/disintegration/imaging"
)

// MaxWorkPixels is the largest number of pixels a segmenter reads an image at. A larger
// photo (a 12-megapixel camera frame) is shrunk by area averaging to fit, segmented, and
// its labels scaled back to every pixel of the original: its features alone would
// otherwise take 0.9 GB, and the defaults (cells of 16 pixels, 5×5 and 11×11 texture
// windows) were chosen on 481×321 photos, so a shrunk photo is read at the scale they fit.
const MaxWorkPixels = 1 << 20

// workSize is the size an image of w×h pixels is segmented at: its own, or the largest
// of the same aspect within MaxWorkPixels.
func workSize(w, h int) (int, int) {
	if int64(w)*int64(h) <= MaxWorkPixels {
		return w, h
	}
	f := math.Sqrt(float64(MaxWorkPixels) / (float64(w) * float64(h)))
	ww, wh := max(1, int(float64(w)*f)), max(1, int(float64(h)*f))
	// A side rounded up to 1 pixel leaves the other the whole budget, no more.
	ww = min(ww, MaxWorkPixels/wh)
	return ww, min(wh, MaxWorkPixels/ww)
}

// shrinkToWork returns img at its work size: img itself when it fits.
func shrinkToWork(img image.Image) image.Image {
	b := img.Bounds()
	w, h := workSize(b.Dx(), b.Dy())
	if w == b.Dx() && h == b.Dy() {
		return img
	}
	return imaging.Resize(img, w, h, imaging.Box)
}

// scaleLabels returns the w×h label map labels scaled to W×H by nearest neighbour: each
// pixel of the original takes the label of the work pixel it fell into.
func scaleLabels(labels []int32, w, h, W, H int) []int32 {
	out := make([]int32, W*H)
	cols := make([]int, W)
	for x := range cols {
		cols[x] = x * w / W
	}
	for y := 0; y < H; y++ {
		src := labels[(y*h/H)*w:]
		row := out[y*W : (y+1)*W]
		for x, c := range cols {
			row[x] = src[c]
		}
	}
	return out
}
