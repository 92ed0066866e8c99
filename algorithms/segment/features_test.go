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

func TestFeaturesStandardised(t *testing.T) {
	// Every column is centred; all share one scale, under which the colour columns
	// have mean variance 1.
	img, _ := blocksImage(32, 24, 1)
	for _, texture := range []bool{false, true} {
		p, err := newPixels(img, texture, 1)
		if err != nil {
			t.Fatal(err)
		}
		var colourVar float64
		for j := 0; j < p.D; j++ {
			var s, s2 float64
			for n := 0; n < p.N; n++ {
				v := p.Y[n*p.D+j]
				s += v
				s2 += v * v
			}
			if mean := s / float64(p.N); math.Abs(mean) > 1e-9 {
				t.Errorf("texture=%v dim %d: mean %v", texture, j, mean)
			}
			if j < 3 {
				colourVar += s2 / float64(p.N) / 3
			}
		}
		if math.Abs(colourVar-1) > 1e-9 {
			t.Errorf("texture=%v: mean colour variance %v, want 1", texture, colourVar)
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
