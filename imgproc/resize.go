package imgproc

import (
	"math"

	"github.com/disintegration/imaging"
)

// tap is one source sample's weight in a resampled output sample.
type tap struct {
	i int
	w float64
}

// resampleWeights lists, for each of dst output positions, the weighted source positions
// among src, exactly as imaging.Resize computes them: the filter is stretched by the
// shrink factor when downsampling, so every source pixel contributes.
func resampleWeights(dst, src int, filter imaging.ResampleFilter) [][]tap {
	du := float64(src) / float64(dst)
	scale := max(du, 1)
	ru := math.Ceil(scale * filter.Support)
	out := make([][]tap, dst)
	all := make([]tap, 0, dst*(2*int(ru)+1)) // one backing array for every position
	for v := range out {
		fu := (float64(v)+0.5)*du - 0.5
		begin := max(int(math.Ceil(fu-ru)), 0)
		end := min(int(math.Floor(fu+ru)), src-1)
		var sum float64
		start := len(all)
		for u := begin; u <= end; u++ {
			if w := filter.Kernel((float64(u) - fu) / scale); w != 0 {
				sum += w
				all = append(all, tap{u, w})
			}
		}
		taps := all[start:len(all):len(all)]
		if sum != 0 {
			for i := range taps {
				taps[i].w /= sum
			}
		}
		out[v] = taps
	}
	return out
}

// resample resizes a w×h picture of c interleaved channels, src laid out as
// src[(y*w+x)*c+k], to dw×dh in dst with the Lanczos filter of disintegration/imaging.
// It works on the float samples themselves, so PFM values outside [0, 1] survive and
// 16-bit samples keep their precision (imaging.Resize goes through 8-bit NRGBA).
// Lanczos rings slightly past sharp edges; clamp limits the result to [0, 1] for
// pictures whose samples are there by construction.
func resample(src []float64, w, h, c int, dst []float64, dw, dh int, clamp bool) {
	resampleWith(src, w, h, c, dst, dw, dh, clamp, imaging.Lanczos)
}

// resampleWith is resample with the given filter.
func resampleWith(src []float64, w, h, c int, dst []float64, dw, dh int, clamp bool, filter imaging.ResampleFilter) {
	// Horizontal pass: h rows of dw pixels.
	tmp := src
	if dw != w {
		tmp = make([]float64, h*dw*c)
		xs := resampleWeights(dw, w, filter)
		for y := 0; y < h; y++ {
			resampleRow(tmp[y*dw*c:(y+1)*dw*c], src[y*w*c:(y+1)*w*c], xs, c)
		}
	}
	// Vertical pass: whole rows at a time, which walks memory in order.
	row := dw * c
	out := dst[:dh*row]
	if dh == h {
		copy(out, tmp)
	} else {
		clear(out)
		for y, taps := range resampleWeights(dh, h, filter) {
			o := out[y*row : (y+1)*row]
			for _, t := range taps {
				s := tmp[t.i*row : (t.i+1)*row]
				for k := range o {
					o[k] += t.w * s[k]
				}
			}
		}
	}
	if clamp {
		for i, v := range out {
			out[i] = max(0, min(1, v))
		}
	}
}

// resampleRow adds to out, a row of len(xs) pixels of c samples, the row in weighted by
// xs (resampleWeights).
func resampleRow(out, in []float64, xs [][]tap, c int) {
	for x, taps := range xs {
		o := out[x*c : (x+1)*c]
		for _, t := range taps {
			s := in[t.i*c : (t.i+1)*c]
			for k := range o {
				o[k] += t.w * s[k]
			}
		}
	}
}
