package segment

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"
)

func TestTextureMatchesWindow(t *testing.T) {
	const w, h = 9, 7
	rng := rand.New(rand.NewPCG(3, 4))
	const d = textureDims
	p := &pixels{W: w, H: h, N: w * h, D: d, Y: make([]float64, d*w*h)}
	for n := 0; n < p.N; n++ {
		p.Y[n*d] = 100 * rng.Float64()
	}
	p.addTexture()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			// Brute force over the clipped 5×5 and 11×11 windows.
			window := func(r int) (mean, sd float64) {
				var s, s2, cnt float64
				for yy := max(y-r, 0); yy <= min(y+r, h-1); yy++ {
					for xx := max(x-r, 0); xx <= min(x+r, w-1); xx++ {
						l := p.Y[(yy*w+xx)*d]
						s += l
						s2 += l * l
						cnt++
					}
				}
				mean = s / cnt
				return mean, math.Sqrt(s2/cnt - mean*mean)
			}
			mean, sd := window(2)
			_, wide := window(5)
			f := p.Y[(y*w+x)*d:]
			if math.Abs(f[3]-mean) > 1e-9 || math.Abs(f[4]-sd) > 1e-6 || math.Abs(f[5]-wide) > 1e-6 {
				t.Fatalf("(%d,%d): texture (%v, %v, %v), windows (%v, %v, %v)", x, y, f[3], f[4], f[5], mean, sd, wide)
			}
		}
	}
}

// TestFeaturesInColourUnits: every column is centred, and a colour difference is the
// same number of units in every photo, ColourUnit ΔE each, whatever the photo's own
// spread: the features of two flat halves differ by exactly their L*a*b* difference
// divided by ColourUnit, for a faint pair of greys as for red against blue. (Each photo
// used to be scaled to its own spread, which stretched the greys' 3 ΔE to 2 units.)
func TestFeaturesInColourUnits(t *testing.T) {
	for _, tc := range []struct {
		name        string
		left, right [3]float64 // sRGB
	}{
		{"greys 3 ΔE apart", [3]float64{0.45, 0.45, 0.45}, [3]float64{0.48, 0.48, 0.48}},
		{"red and blue", [3]float64{0.8, 0.15, 0.1}, [3]float64{0.1, 0.3, 0.8}},
	} {
		for _, texture := range []bool{false, true} {
			img, _ := synthImage(32, 24, [][3]float64{tc.left, tc.right}, func(x, _ int) int { return x / 16 }, 0, 1)
			p, err := newPixels(img, texture, 1)
			if err != nil {
				t.Fatal(err)
			}
			for j := 0; j < p.D; j++ {
				var s float64
				for n := 0; n < p.N; n++ {
					s += p.Y[n*p.D+j]
				}
				if mean := s / float64(p.N); math.Abs(mean) > 1e-9 {
					t.Errorf("%s, texture=%v, column %d: mean %v", tc.name, texture, j, mean)
				}
			}
			// Pixels more than the smoothing window from the border keep their colour.
			lab := func(c [3]float64) [3]float64 {
				// The 8-bit value synthImage writes, as the features read it.
				q := func(v float64) float64 { return float64(uint8(v*255+0.5)) / 255 }
				l, a, b := SRGBToLab(q(c[0]), q(c[1]), q(c[2]))
				return [3]float64{l, a, b}
			}
			want, other := lab(tc.left), lab(tc.right)
			y := 12 * p.W
			for k := 0; k < 3; k++ {
				got := (p.Y[(y+2)*p.D+k] - p.Y[(y+29)*p.D+k]) * ColourUnit
				if d := want[k] - other[k]; math.Abs(got-d) > 1e-6 {
					t.Errorf("%s, texture=%v, column %d: the halves differ by %.6f ΔE, want %.6f", tc.name, texture, k, got, d)
				}
			}
		}
	}
}

func TestFeaturesGreyAndTransparent(t *testing.T) {
	// A grey image has constant a*, b*: they are centred, not blown up by a zero sd.
	g := image.NewGray(image.Rect(0, 0, 4, 3))
	for i := range g.Pix {
		g.Pix[i] = uint8(40 * i)
	}
	p, err := newPixels(g, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < p.N; n++ {
		if a, b := p.Y[n*3+1], p.Y[n*3+2]; math.Abs(a) > 1e-9 || math.Abs(b) > 1e-9 {
			t.Fatalf("grey pixel %d has a*, b* = %v, %v", n, a, b)
		}
	}
	// A fully transparent pixel reads as white, a half-transparent black one as grey.
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.SetNRGBA(0, 0, color.NRGBA{0, 0, 0, 0})
	img.SetNRGBA(1, 0, color.NRGBA{0, 0, 0, 128})
	rgb := make([]float64, 6)
	readRGB(img, rgb)
	if rgb[0] != 1 || rgb[1] != 1 || rgb[2] != 1 {
		t.Errorf("transparent pixel = %v, want white", rgb[:3])
	}
	if math.Abs(rgb[3]-127.0/255) > 0.01 {
		t.Errorf("half-transparent black = %v, want ≈ 0.5", rgb[3])
	}
}
