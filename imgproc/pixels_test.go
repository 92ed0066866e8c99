package imgproc

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// referenceRGB is the slow definition toVector must match: each pixel through At,
// composited on white, in [0, 1]. YCbCr pixels go through color.YCbCrToRGB (8-bit
// JFIF), which is what the fast path computes.
func referenceRGB(img image.Image, x, y int) [3]float64 {
	switch m := img.(type) {
	case *image.YCbCr:
		c := m.YCbCrAt(x, y)
		r, g, b := color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
		return [3]float64{float64(r) / 255, float64(g) / 255, float64(b) / 255}
	case *image.NYCbCrA:
		c := m.NYCbCrAAt(x, y)
		r, g, b := color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
		a := float64(c.A) / 255
		return [3]float64{float64(r)/255*a + 1 - a, float64(g)/255*a + 1 - a, float64(b)/255*a + 1 - a}
	case *image.NRGBA: // At premultiplies in integers, losing precision the loader keeps
		c := m.NRGBAAt(x, y)
		a := float64(c.A) / 255
		return [3]float64{float64(c.R)/255*a + 1 - a, float64(c.G)/255*a + 1 - a, float64(c.B)/255*a + 1 - a}
	case *image.NRGBA64:
		c := m.NRGBA64At(x, y)
		a := float64(c.A) / 65535
		return [3]float64{float64(c.R)/65535*a + 1 - a, float64(c.G)/65535*a + 1 - a, float64(c.B)/65535*a + 1 - a}
	case *FloatImage:
		i := (y*m.W + x) * m.Channels
		if m.Channels == 1 {
			v := float64(m.Pix[i])
			return [3]float64{v, v, v}
		}
		return [3]float64{float64(m.Pix[i]), float64(m.Pix[i+1]), float64(m.Pix[i+2])}
	}
	r, g, b, a := img.At(x, y).RGBA()
	white := 1 - float64(a)/65535
	return [3]float64{float64(r)/65535 + white, float64(g)/65535 + white, float64(b)/65535 + white}
}

func randomImages(rng *rand.Rand) map[string]image.Image {
	r := image.Rect(0, 0, 13, 7) // odd sizes exercise chroma subsampling edges
	fill := func(pix []uint8) {
		for i := range pix {
			pix[i] = uint8(rng.IntN(256))
		}
	}
	out := map[string]image.Image{}
	gray := image.NewGray(r)
	fill(gray.Pix)
	out["gray"] = gray
	g16 := image.NewGray16(r)
	fill(g16.Pix)
	out["gray16"] = g16
	nrgba := image.NewNRGBA(r)
	fill(nrgba.Pix)
	out["nrgba"] = nrgba
	rgba := image.NewRGBA(r)
	for i := 0; i < len(rgba.Pix); i += 4 { // valid premultiplied: colour ≤ alpha
		a := uint8(rng.IntN(256))
		rgba.Pix[i+3] = a
		for c := 0; c < 3; c++ {
			rgba.Pix[i+c] = uint8(rng.IntN(int(a) + 1))
		}
	}
	out["rgba"] = rgba
	n64 := image.NewNRGBA64(r)
	fill(n64.Pix)
	out["nrgba64"] = n64
	r64 := image.NewRGBA64(r)
	for x := 0; x < 13; x++ {
		for y := 0; y < 7; y++ {
			a := uint16(rng.IntN(65536))
			r64.SetRGBA64(x, y, color.RGBA64{uint16(rng.IntN(int(a) + 1)), uint16(rng.IntN(int(a) + 1)), uint16(rng.IntN(int(a) + 1)), a})
		}
	}
	out["rgba64"] = r64
	pal := image.NewPaletted(r, color.Palette{color.RGBA{10, 20, 30, 255}, color.NRGBA{200, 0, 0, 100}, color.Transparent, color.Gray{77}})
	for i := range pal.Pix {
		pal.Pix[i] = uint8(rng.IntN(4))
	}
	out["paletted"] = pal
	cmyk := image.NewCMYK(r)
	fill(cmyk.Pix)
	out["cmyk (generic path)"] = cmyk
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422,
		image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410} {
		m := image.NewYCbCr(image.Rect(0, 0, 17, 9), ratio)
		fill(m.Y)
		fill(m.Cb)
		fill(m.Cr)
		out["ycbcr "+ratio.String()] = m
		out["ycbcr sub-image "+ratio.String()] = m.SubImage(image.Rect(3, 1, 16, 8))
		na := image.NewNYCbCrA(image.Rect(0, 0, 17, 9), ratio)
		fill(na.Y)
		fill(na.Cb)
		fill(na.Cr)
		fill(na.A)
		out["nycbcra sub-image "+ratio.String()] = na.SubImage(image.Rect(1, 2, 14, 9))
	}
	f1 := NewFloatImage(13, 7, 1)
	f3 := NewFloatImage(13, 7, 3)
	for i := range f1.Pix {
		f1.Pix[i] = float32(rng.NormFloat64())
	}
	for i := range f3.Pix {
		f3.Pix[i] = float32(rng.NormFloat64())
	}
	out["float grey"], out["float rgb"] = f1, f3
	return out
}

func TestToVectorMatchesAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, img := range randomImages(rng) {
		t.Run(name, func(t *testing.T) {
			b := img.Bounds()
			// YCbCr rounds to nearest like libjpeg, At truncates: they may differ by one level.
			tol := 1e-12
			if strings.Contains(name, "ycbcr") {
				tol = 1.0/255 + 1e-9
			}
			rgb := ImageToVector(img, false)
			grey := ImageToVector(img, true)
			if len(rgb) != 3*b.Dx()*b.Dy() || len(grey) != b.Dx()*b.Dy() {
				t.Fatalf("lengths %d and %d for %v", len(rgb), len(grey), b)
			}
			for y := 0; y < b.Dy(); y++ {
				for x := 0; x < b.Dx(); x++ {
					want := referenceRGB(img, b.Min.X+x, b.Min.Y+y)
					i := y*b.Dx() + x
					for c := 0; c < 3; c++ {
						if math.Abs(rgb[3*i+c]-want[c]) > tol {
							t.Fatalf("pixel (%d,%d) channel %d = %v, want %v", x, y, c, rgb[3*i+c], want[c])
						}
					}
					if l := luma(want[0], want[1], want[2]); math.Abs(grey[i]-l) > tol {
						t.Fatalf("pixel (%d,%d) grey = %v, want %v", x, y, grey[i], l)
					}
				}
			}
		})
	}
}

func TestIsColour(t *testing.T) {
	greyYCbCr := image.NewYCbCr(image.Rect(0, 0, 8, 8), image.YCbCrSubsampleRatio420)
	for i := range greyYCbCr.Cb {
		greyYCbCr.Cb[i], greyYCbCr.Cr[i] = 128, 128
	}
	for i := range greyYCbCr.Y {
		greyYCbCr.Y[i] = uint8(i)
	}
	colourYCbCr := image.NewYCbCr(image.Rect(0, 0, 8, 8), image.YCbCrSubsampleRatio420)
	copy(colourYCbCr.Y, greyYCbCr.Y)
	copy(colourYCbCr.Cb, greyYCbCr.Cb)
	copy(colourYCbCr.Cr, greyYCbCr.Cr)
	colourYCbCr.Cr[len(colourYCbCr.Cr)-1] = 200 // one reddish 2×2 block, at the end
	greyPalette := image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.Gray{3}, color.Transparent})
	tests := []struct {
		name string
		img  image.Image
		want bool
	}{
		{"gray", image.NewGray(image.Rect(0, 0, 2, 2)), false},
		{"grey content in YCbCr", greyYCbCr, false},
		{"one colour block in YCbCr", colourYCbCr, true},
		{"grey palette with transparency", greyPalette, false},
		{"grey float rgb", &FloatImage{W: 1, H: 1, Channels: 3, Pix: []float32{-1, -1, -1}}, false},
		{"colour float", &FloatImage{W: 1, H: 1, Channels: 3, Pix: []float32{0, 0, 0.5}}, true},
		{"float grey", NewFloatImage(2, 2, 1), false},
	}
	for _, tt := range tests {
		if got := isColour(tt.img); got != tt.want {
			t.Errorf("%s: isColour = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestToVectorMalformedFloatImage(t *testing.T) {
	for _, m := range []*FloatImage{
		{W: 2, H: 2, Channels: 3, Pix: []float32{1}}, // too few samples
		{W: 2, H: 1, Channels: 0},
		{W: 2, H: 1, Channels: 2, Pix: []float32{0.1, 0.2, 0.3, 0.4}},
	} {
		v := ImageToVector(m, false) // must not panic
		if len(v) != 3*m.W*m.H {
			t.Errorf("%+v: %d samples", m, len(v))
		}
	}
}

// TestYCbCrRoundsLikeLibjpeg: R = Y + 1.402(Cr − 128) = 100 + 100.944 → 201 in libjpeg
// (Go's color.YCbCrToRGB gives 200); G and B likewise to nearest.
func TestYCbCrRoundsLikeLibjpeg(t *testing.T) {
	m := image.NewYCbCr(image.Rect(0, 0, 1, 1), image.YCbCrSubsampleRatio444)
	m.Y[0], m.Cb[0], m.Cr[0] = 100, 128, 200
	v := ImageToVector(m, false)
	want := []float64{201, math.Round(100 - 0.714136*72), 100}
	for c := range want {
		if math.Abs(v[c]*255-want[c]) > 1e-9 {
			t.Fatalf("channel %d = %v, want %v", c, v[c]*255, want[c])
		}
	}
}
