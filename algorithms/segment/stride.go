package segment

import "gonum.org/v1/gonum/mathext"

// Fitting on a subsampled grid (Options.Stride). The model's observations are the
// pixels (y·s, x·s) of the smoothed image; the other pixels are not observations of the
// fit. Once the posterior has settled every pixel of the image — observed or not — gets
// the label that maximises q(z_n = c) of eq. (50) at the final q(v) of its cell and q(θ):
// the assignment the model gives a new observation at that location.

// minFitPixels is the fewest pixels a strided fit keeps. A 48×48 icon at stride 4 left
// 144 pixels, which the likelihood power halves again, too few for the bound to pay for
// more than 2 segments (the ac-adapter icon's bolt, plug and cable became one); a
// 481×321 photo keeps 9 600 at stride 4.
const minFitPixels = 2500

// fitStride is the stride the fit uses for an image of n pixels: the largest s ≤ stride
// that still leaves minFitPixels, and 1 for images smaller than that.
func fitStride(n, stride int) int {
	s := max(stride, 1)
	for s > 1 && n/(s*s) < minFitPixels {
		s--
	}
	return s
}

// subsample returns the pixels (y·s, x·s) of p (features only; RGB is not needed by the
// fit).
func (p *pixels) subsample(s int) *pixels {
	w, h := (p.W+s-1)/s, (p.H+s-1)/s
	q := &pixels{W: w, H: h, N: w * h, D: p.D, Y: make([]float64, w*h*p.D)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			copy(q.Y[(y*w+x)*p.D:(y*w+x+1)*p.D], p.Y[(y*s*p.W+x*s)*p.D:(y*s*p.W+x*s+1)*p.D])
		}
	}
	return q
}

// labelAll labels every pixel of full, the image m was fitted to at stride s, by the
// largest a_c = ⟨ln ϖ_c(x)⟩ + ⟨ln p(y_n|θ_c)⟩ (eqs. (50)–(54)) with the sticks of the
// cell the pixel falls in.
func (m *kpyp) labelAll(full *pixels, s int) []int32 {
	C, D := m.C, m.D
	counts := m.cellCounts()
	alphaMean := m.eta1 / m.eta2
	elogpi := make([]float64, m.GH*m.GW*C)
	for i := 0; i < m.GH; i++ {
		for j := 0; j < m.GW; j++ {
			cell := i*m.GW + j
			cnt := counts[cell*C : (cell+1)*C]
			e := elogpi[cell*C : (cell+1)*C]
			var t float64
			for _, v := range cnt {
				t += v
			}
			var cum float64
			for c := 0; c < C-1; c++ {
				t -= cnt[c]
				k := m.kernel(i, j, c)
				bt := k + cnt[c]
				bh := alphaMean + float64(c+1)*(1-k) + max(t, 0)
				ds := mathext.Digamma(bt + bh)
				e[c] = cum + mathext.Digamma(bt) - ds
				cum += mathext.Digamma(bh) - ds
			}
			e[C-1] = cum
		}
	}
	labels := make([]int32, full.N)
	span := m.cell * s
	forChunks(full.N, m.workers, func(_, _, lo, hi int) {
		a := make([]float64, C)
		diff := make([]float64, D)
		for n := lo; n < hi; n++ {
			y, x := n/full.W, n%full.W
			i, j := min(y/span, m.GH-1), min(x/span, m.GW-1)
			best, _ := m.expLogLiks(a, elogpi[(i*m.GW+j)*C:(i*m.GW+j+1)*C], full.Y[n*D:(n+1)*D], diff)
			labels[n] = int32(best)
		}
	})
	return labels
}
