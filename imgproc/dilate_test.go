package imgproc

import (
	"math/rand/v2"
	"testing"
)

// TestDilate: a pixel is marked exactly when a marked pixel of the input lies within the
// radius, checked window by window on random grids, radii and marks.
func TestDilate(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 300; trial++ {
		w, h, radius := 1+rng.IntN(25), 1+rng.IntN(25), rng.IntN(5)
		in := make([]bool, w*h)
		for i := range in {
			in[i] = rng.IntN(12) == 0
		}
		got := Dilate(in, w, h, radius)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				want := false
				for yy := max(y-radius, 0); yy <= min(y+radius, h-1); yy++ {
					for xx := max(x-radius, 0); xx <= min(x+radius, w-1); xx++ {
						want = want || in[yy*w+xx]
					}
				}
				if got[y*w+x] != want {
					t.Fatalf("trial %d (%d×%d, radius %d): (%d, %d) is %v, want %v", trial, w, h, radius, x, y, got[y*w+x], want)
				}
			}
		}
	}
}
