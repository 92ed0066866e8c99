package imgproc

import (
	"image"
	"math"
)

// Ends of the diverging colour map: ColorBrewer RdBu's darkest blue and red, which stay
// distinguishable for the common forms of colour blindness.
var (
	divergingNegative = [3]float64{33, 102, 172}
	divergingPositive = [3]float64{178, 24, 43}
)

// Diverging renders a signed vector laid out as v[(y*w+x)*c+k] — a feature's effect on
// the pixels, positive where it adds brightness — on a blue–white–red colour map
// symmetric around zero: each pixel's colour is picked by the mean over its channels,
// scaled by the largest magnitude, so 0 is white, the strongest brightening full red and
// the strongest darkening full blue. An all-zero vector is all white; NaN counts as zero.
func Diverging(v []float64, w, h, c int) image.Image {
	w, h, c = max(w, 0), max(h, 0), max(c, 1)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	mean := make([]float64, w*h)
	var peak float64
	for i := range mean {
		var s float64
		for k := 0; k < c; k++ {
			if j := i*c + k; j < len(v) && !math.IsNaN(v[j]) {
				s += v[j]
			}
		}
		s /= float64(c)
		if math.IsNaN(s) { // +Inf and −Inf in one pixel
			s = 0
		}
		mean[i] = s
		peak = max(peak, math.Abs(s))
	}
	if math.IsInf(peak, 0) {
		peak = math.MaxFloat64 // ±Inf pixels go to full colour, the rest near white
	}
	for i, s := range mean {
		t := 0.0
		if peak > 0 {
			t = max(-1, min(1, s/peak))
		}
		p := img.Pix[4*i : 4*i+4 : 4*i+4]
		p[0], p[1], p[2] = divergingColour(t)
		p[3] = 0xff
	}
	return img
}

// divergingColour maps t in [−1, 1] linearly from blue through white to red.
func divergingColour(t float64) (r, g, b uint8) {
	end := divergingPositive
	if t < 0 {
		end, t = divergingNegative, -t
	}
	mix := func(c float64) uint8 { return uint8(255 + (c-255)*t + 0.5) }
	return mix(end[0]), mix(end[1]), mix(end[2])
}
