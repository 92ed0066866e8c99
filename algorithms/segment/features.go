package segment

import (
	"errors"
	"fmt"
	"image"
	"math"
)

// textureRadius is the half-width of the window of the texture features (5×5).
const textureRadius = 2

// pixels holds one image's per-pixel data in flat row-major slices.
type pixels struct {
	W, H, N int
	// D is the number of feature dimensions: 3 (L*, a*, b*) or 5 with texture.
	D int
	// Y is N×D: the standardised features y_n.
	Y []float64
	// RGB is N×3: the sRGB colour in [0, 1] (composited on white), for display.
	RGB []float64
}

// newPixels reads img into standardised features. Transparent pixels are composited on
// white, as the loader does.
func newPixels(img image.Image, texture bool) (*pixels, error) {
	if img == nil {
		return nil, errors.New("segment: image is nil")
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("segment: image is empty (%d×%d)", w, h)
	}
	if int64(w)*int64(h) > maxCells {
		return nil, fmt.Errorf("segment: image of %d×%d pixels is too large", w, h)
	}
	p := &pixels{W: w, H: h, N: w * h, D: 3}
	if texture {
		p.D = 5
	}
	p.RGB = make([]float64, 3*p.N)
	p.Y = make([]float64, p.D*p.N)
	readRGB(img, p.RGB)
	for n := 0; n < p.N; n++ {
		l, a, bb := SRGBToLab(p.RGB[3*n], p.RGB[3*n+1], p.RGB[3*n+2])
		y := p.Y[n*p.D:]
		y[0], y[1], y[2] = l, a, bb
	}
	if texture {
		p.addTexture()
	}
	standardise(p.Y, p.N, p.D)
	return p, nil
}

// readRGB writes img's colours as sRGB in [0, 1] into rgb (3 per pixel, row-major),
// compositing partly transparent pixels on white.
func readRGB(img image.Image, rgb []float64) {
	b := img.Bounds()
	w := b.Dx()
	const max = 0xffff
	// RGBA64At avoids allocating a color.Color per pixel for the standard image types.
	fast, _ := img.(image.RGBA64Image)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var r, g, bl, a uint32
			if fast != nil {
				c := fast.RGBA64At(x, y)
				r, g, bl, a = uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A)
			} else {
				r, g, bl, a = img.At(x, y).RGBA()
			}
			// Premultiplied colour over white: c + (1 − α)·1.
			r, g, bl = r+max-a, g+max-a, bl+max-a
			i := 3 * ((y-b.Min.Y)*w + (x - b.Min.X))
			rgb[i] = float64(r) / max
			rgb[i+1] = float64(g) / max
			rgb[i+2] = float64(bl) / max
		}
	}
}

// addTexture fills feature dimensions 3 and 4 with the mean and standard deviation of L*
// (dimension 0) over the 5×5 window around each pixel, clipped at the borders, from
// integral images of L* and L*² so each pixel costs O(1).
func (p *pixels) addTexture() {
	w, h, d := p.W, p.H, p.D
	s := make([]float64, (w+1)*(h+1))
	s2 := make([]float64, (w+1)*(h+1))
	for y := 0; y < h; y++ {
		var row, row2 float64
		for x := 0; x < w; x++ {
			l := p.Y[(y*w+x)*d]
			row += l
			row2 += l * l
			s[(y+1)*(w+1)+x+1] = s[y*(w+1)+x+1] + row
			s2[(y+1)*(w+1)+x+1] = s2[y*(w+1)+x+1] + row2
		}
	}
	for y := 0; y < h; y++ {
		y0, y1 := max(y-textureRadius, 0), min(y+textureRadius+1, h)
		for x := 0; x < w; x++ {
			x0, x1 := max(x-textureRadius, 0), min(x+textureRadius+1, w)
			cnt := float64((y1 - y0) * (x1 - x0))
			sum := s[y1*(w+1)+x1] - s[y0*(w+1)+x1] - s[y1*(w+1)+x0] + s[y0*(w+1)+x0]
			sum2 := s2[y1*(w+1)+x1] - s2[y0*(w+1)+x1] - s2[y1*(w+1)+x0] + s2[y0*(w+1)+x0]
			mean := sum / cnt
			v := sum2/cnt - mean*mean
			f := p.Y[(y*w+x)*d:]
			f[3] = mean
			f[4] = math.Sqrt(max(v, 0)) // rounding can make a flat window's variance −ε
		}
	}
}

// standardise shifts and scales every column of the n×d matrix y to mean 0 and standard
// deviation 1. A constant column (e.g. a* and b* of a grey image) is only centred.
func standardise(y []float64, n, d int) {
	for j := 0; j < d; j++ {
		var mean float64
		for i := 0; i < n; i++ {
			mean += y[i*d+j]
		}
		mean /= float64(n)
		var ss float64
		for i := 0; i < n; i++ {
			e := y[i*d+j] - mean
			ss += e * e
		}
		sd := math.Sqrt(ss / float64(n))
		inv := 1.0
		if sd > 1e-9*(1+math.Abs(mean)) {
			inv = 1 / sd
		}
		for i := 0; i < n; i++ {
			y[i*d+j] = (y[i*d+j] - mean) * inv
		}
	}
}
