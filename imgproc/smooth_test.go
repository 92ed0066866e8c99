package imgproc

import (
	"math"
	"testing"
)

// TestSmoothTakesAShiftOut: a bright square and the same square a pixel to the right
// differ by a third as much after smoothing with σ = 1 as before, while the square's own
// energy (against an empty picture) stays above two thirds: smoothing spends a shift's
// cost, not an object's.
func TestSmoothTakesAShiftOut(t *testing.T) {
	const w, h = 40, 40
	square := func(x0 int) *Dataset {
		d := &Dataset{Width: w, Height: h, Channels: 1, Names: []string{"a"}, Pixels: make([]float32, w*h)}
		for y := 10; y < 30; y++ {
			for x := x0; x < x0+20; x++ {
				d.Pixels[y*w+x] = 1
			}
		}
		return d
	}
	dist := func(a, b []float32) float64 {
		s := 0.0
		for i := range a {
			s += float64((a[i] - b[i]) * (a[i] - b[i]))
		}
		return s
	}
	a, b, empty := square(10), square(11), &Dataset{Width: w, Height: h, Channels: 1, Names: []string{"e"}, Pixels: make([]float32, w*h)}
	shift, object := dist(a.Pixels, b.Pixels), dist(a.Pixels, empty.Pixels)
	a.Smooth(1)
	b.Smooth(1)
	if got := dist(a.Pixels, b.Pixels); got > shift/3 {
		t.Errorf("a one-pixel shift costs %.2f after smoothing, %.2f before", got, shift)
	}
	if got := dist(a.Pixels, empty.Pixels); got < object*2/3 || math.IsNaN(got) {
		t.Errorf("the square's energy %.2f after smoothing, %.2f before", got, object)
	}
}
