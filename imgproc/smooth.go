package imgproc

import "math"

// Smooth blurs every picture with a Gaussian of standard deviation sigma pixels (each
// channel apart, edges clamped): a shift of a pixel or two then changes a picture much
// less than an object does.
func (d *Dataset) Smooth(sigma float64) {
	if sigma <= 0 {
		return
	}
	r := int(math.Ceil(3 * sigma))
	kernel := make([]float32, 2*r+1)
	var sum float32
	for i := range kernel {
		x := float64(i - r)
		kernel[i] = float32(math.Exp(-x * x / (2 * sigma * sigma)))
		sum += kernel[i]
	}
	for i := range kernel {
		kernel[i] /= sum
	}
	w, h, c := d.Width, d.Height, d.Channels
	tmp := make([]float32, w*h*c)
	clamp := func(v, hi int) int { return min(max(v, 0), hi-1) }
	for n := range d.Names {
		row := d.Row(n)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				for ch := 0; ch < c; ch++ {
					var s float32
					for k, kv := range kernel {
						s += kv * row[(y*w+clamp(x+k-r, w))*c+ch]
					}
					tmp[(y*w+x)*c+ch] = s
				}
			}
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				for ch := 0; ch < c; ch++ {
					var s float32
					for k, kv := range kernel {
						s += kv * tmp[(clamp(y+k-r, h)*w+x)*c+ch]
					}
					row[(y*w+x)*c+ch] = s
				}
			}
		}
	}
}
