package imgproc

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/disintegration/imaging"
)

// TestResampleMatchesImaging compares the float resampler with imaging.Resize (Lanczos)
// on opaque 8-bit pictures; imaging rounds to bytes between its two passes, so the two
// agree to within a couple of levels, and on average far closer.
func TestResampleMatchesImaging(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tests := []struct{ w, h, dw, dh int }{
		{20, 15, 10, 7},      // shrink
		{10, 7, 23, 16},      // enlarge
		{314, 476, 222, 323}, // the cards' back@2x.png
		{12, 12, 12, 5},      // one axis only
		{1, 1, 3, 2},
	}
	for _, tt := range tests {
		img := image.NewNRGBA(image.Rect(0, 0, tt.w, tt.h))
		for i := range img.Pix {
			img.Pix[i] = uint8(128 + 60*math.Sin(float64(i%(4*tt.w))/7) + 20*rng.Float64())
			if i%4 == 3 {
				img.Pix[i] = 255
			}
		}
		want := ImageToVector(imaging.Resize(img, tt.dw, tt.dh, imaging.Lanczos), false)
		got := make([]float64, tt.dw*tt.dh*3)
		resample(ImageToVector(img, false), tt.w, tt.h, 3, got, tt.dw, tt.dh, true)
		var worst, sum float64
		for i := range got {
			d := math.Abs(got[i] - want[i])
			worst, sum = max(worst, d), sum+d
		}
		if worst > 2.0/255 || sum/float64(len(got)) > 0.6/255 {
			t.Errorf("%d×%d → %d×%d: differs from imaging by up to %.2f levels, %.2f on average",
				tt.w, tt.h, tt.dw, tt.dh, worst*255, sum/float64(len(got))*255)
		}
	}
}

// TestResampleKeepsFloatRange checks that without clamping, values outside [0, 1] and
// linear ramps survive (Lanczos reproduces a linear function away from the edges).
func TestResampleKeepsFloatRange(t *testing.T) {
	const w, h, dw, dh = 32, 4, 16, 2
	src := make([]float64, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			src[y*w+x] = -3 + 0.5*float64(x)
		}
	}
	dst := make([]float64, dw*dh)
	resample(src, w, h, 1, dst, dw, dh, false)
	for x := 3; x < dw-3; x++ { // away from the edges, where the filter is cut
		// Output column x is centred on source position 2x + 0.5.
		want := -3 + 0.5*(2*float64(x)+0.5)
		if got := dst[x]; math.Abs(got-want) > 1e-9 {
			t.Errorf("column %d = %v, want %v", x, got, want)
		}
	}
	if dst[0] >= 0 {
		t.Errorf("negative values clamped: %v", dst[0])
	}
}
