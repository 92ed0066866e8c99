package imgproc

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"featurelab/internal/parallel"
)

// gaussian is the normalised kernel of a Gaussian of standard deviation sigma, cut at
// three of them on either side.
func gaussian(sigma float64) []float64 {
	r := int(math.Ceil(3 * sigma))
	kernel := make([]float64, 2*r+1)
	var sum float64
	for i := range kernel {
		x := float64(i - r)
		kernel[i] = math.Exp(-x * x / (2 * sigma * sigma))
		sum += kernel[i]
	}
	for i := range kernel {
		kernel[i] /= sum
	}
	return kernel
}

// GaussianKernel is the normalised kernel of a Gaussian of standard deviation sigma
// pixels that SmoothPictures blurs with, cut at three of them on either side; [1] for
// sigma ≤ 0.
func GaussianKernel(sigma float64) []float64 {
	if sigma <= 0 {
		return []float64{1}
	}
	return gaussian(sigma)
}

// SmoothPictures blurs with a Gaussian of standard deviation sigma pixels (each channel
// apart, edges clamped: a shift of a pixel or two then changes a picture much less than
// an object does) the k pictures of width w, height h and c
// channels held one after the other in x (picture-major, each row by row, its channels
// interleaved) and returns them in a new slice. The pictures are shared out to workers
// goroutines, each blurring its own, so the result does not depend on their number.
func SmoothPictures(x []float64, w, h, c, k int, sigma float64, workers int) []float64 {
	if sigma <= 0 {
		return slices.Clone(x)
	}
	out := make([]float64, len(x))
	kernel := gaussian(sigma)
	r := len(kernel) / 2
	stride, p := w*c, w*h*c
	tmps := make([][]float64, max(workers, 1)) // one row-pass buffer per worker
	parallel.For(workers, k, func(worker, i int) {
		in, dst := x[i*p:(i+1)*p], out[i*p:(i+1)*p]
		if tmps[worker] == nil {
			tmps[worker] = make([]float64, p)
		}
		tmp := tmps[worker]
		for y := 0; y < h; y++ { // along each row: whole shifted rows inside, clamped at the edges
			src, row := in[y*stride:(y+1)*stride], tmp[y*stride:(y+1)*stride]
			if w > 2*r {
				inner := row[r*c : (w-r)*c]
				clear(inner) // the buffer holds the worker's last picture
				for t, kv := range kernel {
					floats.AddScaled(inner, kv, src[t*c:(w-2*r+t)*c])
				}
			}
			for xx := 0; xx < w; xx++ {
				if xx == r && w > 2*r {
					xx = w - r // the inside is done
				}
				for ch := 0; ch < c; ch++ {
					var s float64
					for t, kv := range kernel {
						s += kv * src[min(max(xx+t-r, 0), w-1)*c+ch]
					}
					row[xx*c+ch] = s
				}
			}
		}
		for y := 0; y < h; y++ { // then down each column, a whole row at a time
			row := dst[y*stride : (y+1)*stride]
			for t, kv := range kernel {
				yy := min(max(y+t-r, 0), h-1)
				floats.AddScaled(row, kv, tmp[yy*stride:(yy+1)*stride])
			}
		}
	})
	return out
}
