package imgproc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSmoothTakesAShiftOut: a bright square and the same square a pixel to the right
// differ by a third as much after smoothing with σ = 1 as before, while the square's own
// energy (against an empty picture) stays above two thirds: smoothing spends a shift's
// cost, not an object's.
func TestSmoothTakesAShiftOut(t *testing.T) {
	const w, h = 40, 40
	square := func(x0 int) []float64 {
		p := make([]float64, w*h)
		for y := 10; y < 30; y++ {
			for x := x0; x < x0+20; x++ {
				p[y*w+x] = 1
			}
		}
		return p
	}
	dist := func(a, b []float64) float64 {
		s := 0.0
		for i := range a {
			s += (a[i] - b[i]) * (a[i] - b[i])
		}
		return s
	}
	a, b, empty := square(10), square(11), make([]float64, w*h)
	shift, object := dist(a, b), dist(a, empty)
	sa, sb := SmoothPictures(a, w, h, 1, 1, 1, 1), SmoothPictures(b, w, h, 1, 1, 1, 1)
	if got := dist(sa, sb); got > shift/3 {
		t.Errorf("a one-pixel shift costs %.2f after smoothing, %.2f before", got, shift)
	}
	if got := dist(sa, empty); got < object*2/3 || math.IsNaN(got) {
		t.Errorf("the square's energy %.2f after smoothing, %.2f before", got, object)
	}
}

// TestSmoothPicturesIsTheClampedGaussian compares SmoothPictures with the plain sum
// Σ g(dx) g(dy) x(clamp(x+dx), clamp(y+dy)) on random pictures of every small size
// (narrower than the kernel too), in one and three channels, for 1, 2 and 3 workers.
func TestSmoothPicturesIsTheClampedGaussian(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sigma := range []float64{0.5, 1, 2} {
		g := gaussian(sigma)
		r := len(g) / 2
		for _, c := range []int{1, 3} {
			for w := 1; w <= 9; w += 2 {
				for h := 1; h <= 8; h += 3 {
					const k = 3
					p := w * h * c
					x := make([]float64, k*p)
					for i := range x {
						x[i] = rng.Float64()
					}
					for workers := 1; workers <= 3; workers++ {
						got := SmoothPictures(x, w, h, c, k, sigma, workers)
						for i := 0; i < k; i++ {
							for y := 0; y < h; y++ {
								for xx := 0; xx < w; xx++ {
									for ch := 0; ch < c; ch++ {
										var want float64
										for dy := -r; dy <= r; dy++ {
											for dx := -r; dx <= r; dx++ {
												yy, xc := min(max(y+dy, 0), h-1), min(max(xx+dx, 0), w-1)
												want += g[dy+r] * g[dx+r] * x[i*p+(yy*w+xc)*c+ch]
											}
										}
										if v := got[i*p+(y*w+xx)*c+ch]; math.Abs(v-want) > 1e-12 {
											t.Fatalf("σ %g, %d×%d×%d, %d workers: picture %d at (%d, %d, %d) is %g, want %g",
												sigma, w, h, c, workers, i, xx, y, ch, v, want)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
}
