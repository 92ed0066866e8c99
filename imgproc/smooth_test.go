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

// TestSmoothRowsIsABandOfTheBlur: a band of rows blurred from the rows it reaches is
// those rows of the whole pictures blurred, exactly.
func TestSmoothRowsIsABandOfTheBlur(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const w, h, c, k = 9, 17, 3, 4
	x := make([]float64, w*h*c*k)
	for i := range x {
		x[i] = rng.Float64()
	}
	for _, sigma := range []float64{0.5, 1, 2} {
		whole := SmoothPictures(x, w, h, c, k, sigma, 2)
		r := SmoothReach(sigma)
		for trial := 0; trial < 20; trial++ {
			y0 := rng.IntN(h)
			y1 := y0 + 1 + rng.IntN(h-y0)
			lo, hi := max(y0-r, 0), min(y1+r, h)
			var band []float64
			for i := 0; i < k; i++ {
				band = append(band, x[(i*h+lo)*w*c:(i*h+hi)*w*c]...)
			}
			got := SmoothRows(nil, band, w, h, c, k, sigma, y0, y1, 3)
			for i := 0; i < k; i++ {
				want := whole[(i*h+y0)*w*c : (i*h+y1)*w*c]
				part := got[i*(y1-y0)*w*c : (i+1)*(y1-y0)*w*c]
				for j := range want {
					if part[j] != want[j] {
						t.Fatalf("sigma %v, rows [%d, %d), picture %d: value %d is %v, the whole blur's %v", sigma, y0, y1, i, j, part[j], want[j])
					}
				}
			}
		}
	}
}
