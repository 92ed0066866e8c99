package segment

import (
	"errors"
	"fmt"
	"image"
	"math"

	"featurelab/internal/parallel"
)

// textureRadius is the half-width of the window of the texture features (5×5).
const textureRadius = 2

// wideTextureRadius is the half-width of the second, wider window whose standard
// deviation of L* is the last texture feature (11×11): a textured region's spread at a
// scale where grass or water is one texture rather than blades and ripples. Chosen on
// the BSDS500 train photos against a wider window and against adding the wide window's
// mean too (docs/DESIGN.md, "Measurements behind the code").
const wideTextureRadius = 5

// textureDims is the number of feature dimensions with texture: L*, a*, b*, then the
// mean and deviation of L* in the 5×5 window and its deviation in the 11×11.
const textureDims = 6

// pixels holds one image's per-pixel data in flat row-major slices.
type pixels struct {
	W, H, N int
	// D is the number of feature dimensions: 3 (L*, a*, b*) or textureDims with texture.
	D int
	// Y is N×D: the features y_n, centred, in units of ColourUnit ΔE.
	Y []float64
	// RGB is N×3: the sRGB colour in [0, 1] (composited on white), for display.
	RGB []float64
}

// newPixels reads img into centred features in units of ColourUnit, smoothing on
// workers goroutines.
// Transparent pixels are composited on white, as the loader does.
func newPixels(img image.Image, texture bool, workers int) (*pixels, error) {
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
		p.D = textureDims
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
		p.addTexture() // from the raw L*: the texture is the deviation smoothing removes
	}
	p.smoothColour(smoothSigma, smoothRange, workers)
	centre(p.Y, p.N, p.D, ColourUnit)
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
// (dimension 0) over the 5×5 window around each pixel and dimension 5 with its standard
// deviation over the 11×11 window, clipped at the borders, from integral images of L*
// and L*² so each pixel costs O(1).
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
	// window returns the mean and standard deviation of L* over the window of radius r
	// around (x, y).
	window := func(x, y, r int) (mean, sd float64) {
		y0, y1 := max(y-r, 0), min(y+r+1, h)
		x0, x1 := max(x-r, 0), min(x+r+1, w)
		cnt := float64((y1 - y0) * (x1 - x0))
		sum := s[y1*(w+1)+x1] - s[y0*(w+1)+x1] - s[y1*(w+1)+x0] + s[y0*(w+1)+x0]
		sum2 := s2[y1*(w+1)+x1] - s2[y0*(w+1)+x1] - s2[y1*(w+1)+x0] + s2[y0*(w+1)+x0]
		mean = sum / cnt
		return mean, math.Sqrt(max(sum2/cnt-mean*mean, 0)) // rounding can make a flat window's variance −ε
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			f := p.Y[(y*w+x)*d:]
			f[3], f[4] = window(x, y, textureRadius)
			_, f[5] = window(x, y, wideTextureRadius)
		}
	}
}

// ColourUnit is the unit of the KPYP's features, in CIE ΔE (L* units): the same for
// every photo, so the Normal–Wishart prior's width σ0 (gausswishart.go), the geodesic
// distance's free colour step and the superpixels' colour distance mean one colour
// difference whatever else the photo holds. It is the geometric mean, over the 200
// BSDS500 train photos, of the photo's own colour spread (the root of the mean variance
// of L*, a* and b*), so a photo of typical contrast is segmented at the scale the priors
// were chosen at. A unit per photo would make the prior data-dependent in the wrong
// direction: a low-contrast photo (a lion on grass, geese on water) would have its small
// colour differences stretched into many segments, and a colourful one its real edges
// shrunk into few, where humans draw few segments on the first and many on the second
// (docs/DESIGN.md, "Measurements behind the code").
const ColourUnit = 12.86

// centre centres every column of the n×d matrix y and divides it by unit. Every column
// is in L* units (L*, a*, b*, and the texture's mean and deviations of L*), and CIE
// L*a*b* is built so that Euclidean distance tracks perceived colour difference: one
// common factor keeps that geometry. Scaling each column to unit variance would not —
// in a dark or nearly grey photo the a* and b* columns vary by a few units of sensor
// noise, and stretching them to the spread of L* turns that noise into colour
// "regions".
func centre(y []float64, n, d int, unit float64) {
	inv := 1 / unit
	for j := 0; j < d; j++ {
		var mean float64
		for i := 0; i < n; i++ {
			mean += y[i*d+j]
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			y[i*d+j] = (y[i*d+j] - mean) * inv
		}
	}
}

// standardise centres every column of the n×d matrix y and scales them all by one
// factor, chosen so that the columns have mean variance 1.
func standardise(y []float64, n, d int) {
	centre(y, n, d, 1)
	var pooled float64
	for j := 0; j < d; j++ {
		var ss float64
		for i := 0; i < n; i++ {
			ss += y[i*d+j] * y[i*d+j]
		}
		pooled += ss / float64(n) / float64(d)
	}
	// A flat column set (one value) is only centred.
	if sd := math.Sqrt(pooled); sd > 1e-9 {
		inv := 1 / sd
		for i := range y[:n*d] {
			y[i] *= inv
		}
	}
}

// Edge-preserving smoothing of the colour (smoothColour): a bilateral filter with a
// Gaussian of smoothSigma pixels in space and of smoothRange CIE ΔE in colour, over a
// window of radius ⌈2·smoothSigma⌉.
const (
	// smoothSigma = 2 (a 9×9 window) divides independent pixel noise by up to about 7.
	smoothSigma = 2.0
	// smoothRange = 25 ΔE: sensor noise and 8-bit quantisation in dark regions move
	// L*a*b* by a few units (up to ~10 in the darkest), while neighbouring objects
	// differ by tens, so noise is averaged and edges are not blurred into bands of
	// in-between colours.
	smoothRange = 25.0
)

// smoothColour replaces the L*a*b* colour (dimensions 0..2) of every pixel by a bilateral
// (Tomasi & Manduchi 1998) average of its window, weighted by spatial distance and by
// colour difference.
//
// Why: the mixture's clusters are Gaussian in colour, but a photo's colour at one pixel
// carries sensor noise, line noise and 8-bit quantisation — in dark regions a lattice of
// a few distinct L*a*b* values — which full-covariance Gaussians fit with several
// clusters per region that interleave pixel by pixel. Averaging with similar neighbours
// makes the noise within a region smaller and close to Gaussian, so one cluster per
// region explains it best; weighting by colour keeps edges sharp, where a plain blur
// would create a band of in-between colours along every edge that the mixture would
// take for a thin segment of its own.
func (p *pixels) smoothColour(sigma, rangeSigma float64, workers int) {
	if sigma <= 0 {
		return
	}
	r := int(math.Ceil(2 * sigma))
	wts := make([]float64, (2*r+1)*(2*r+1))
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			wts[(dy+r)*(2*r+1)+dx+r] = math.Exp(-float64(dx*dx+dy*dy) / (2 * sigma * sigma))
		}
	}
	inv2r := 1 / (2 * rangeSigma * rangeSigma)
	w, h, d := p.W, p.H, p.D
	out := make([]float64, 3*p.N)
	parallel.ForChunks(p.N, workers, func(_, _, lo, hi int) {
		for n := lo; n < hi; n++ {
			y, x := n/w, n%w
			c := p.Y[n*d : n*d+3]
			var s0, s1, s2, ws float64
			for yy := max(y-r, 0); yy <= min(y+r, h-1); yy++ {
				row := wts[(yy-y+r)*(2*r+1) : (yy-y+r+1)*(2*r+1)]
				for xx := max(x-r, 0); xx <= min(x+r, w-1); xx++ {
					f := p.Y[(yy*w+xx)*d : (yy*w+xx)*d+3]
					e0, e1, e2 := f[0]-c[0], f[1]-c[1], f[2]-c[2]
					wk := row[xx-x+r] * math.Exp(-(e0*e0+e1*e1+e2*e2)*inv2r)
					s0 += wk * f[0]
					s1 += wk * f[1]
					s2 += wk * f[2]
					ws += wk
				}
			}
			o := out[3*n : 3*n+3]
			o[0], o[1], o[2] = s0/ws, s1/ws, s2/ws
		}
	})
	for n := 0; n < p.N; n++ {
		copy(p.Y[n*d:n*d+3], out[3*n:3*n+3])
	}
}
