package segment

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mathext"

	"featurelab/internal/parallel"
)

// Fitting on a subsampled grid (Options.Stride). The model's observations are the
// pixels (y·s, x·s) of the smoothed image; the other pixels are not observations of the
// fit. Once the posterior has settled every pixel of the image — observed or not — is
// labelled at the fit's q(θ) and q(α), with superpixels as the locations (labelAll).

// minFitPixels is the fewest pixels a strided fit keeps. A small icon at stride 4 keeps
// too few pixels, which the likelihood power halves again, for the bound to pay for
// more than a couple of segments; a 481×321 photo keeps 9 600 at stride 4.
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

const (
	// superpixelSweeps is the number of rounds of a superpixel's sticks and its
	// pixels' responsibilities in labelAll.
	superpixelSweeps = 3
	// superpixelScale is the side of labelAll's superpixels in cells, chosen on the
	// BSDS500 train photos against labelling by cells and by other superpixel sizes
	// (docs/DESIGN.md, "Measurements behind the code").
	superpixelScale = 1.5
)

// labelAll labels every pixel of full, the image m was fitted to at stride s. Its
// locations are the SLIC superpixels of full (superpixels.go), superpixelScale cells a
// side, in place of the fit's square cells: where two clusters of nearly one colour
// meet, the sticks of the location decide the pixels' labels, and square cells draw
// that border along their edges. q(θ) and q(α) stay at the fit's. A superpixel's pixels
// start from the responsibilities the sticks of their cells give them; then
// superpixelSweeps rounds update its sticks q(v(x)) (eqs. (43)–(45), with the kernel at
// the cell of its centre) and its pixels' q(z_n) (eqs. (50)–(54)) in turn: coordinate
// steps on the bound of the model whose locations are the superpixels. A pixel counts
// 1/s² of an observation, the fit's density. A location's sticks see only its own
// pixels, so the superpixels are independent of each other and the labels do not
// depend on the number of workers. Every pixel gets the cluster of its largest q(z_n).
func (m *kpyp) labelAll(full *pixels, s int) []int32 {
	C, D, W := m.C, m.D, full.W
	span := m.cell * s
	alphaMean := m.eta1 / m.eta2
	counts := m.cellCounts()
	cellEps := make([]float64, m.GH*m.GW*C)
	for cell := range m.GH * m.GW {
		e := cellEps[cell*C : (cell+1)*C]
		m.stickExpectations(counts[cell*C:(cell+1)*C], cell/m.GW, cell%m.GW, alphaMean, e)
		expShift(e)
	}
	sp, k, centres := superpixels(full, int(superpixelScale*float64(span)+0.5), m.workers)
	// The pixels of superpixel l are order[off[l]:off[l+1]].
	off := make([]int, k+1)
	for _, l := range sp {
		off[l+1]++
	}
	largest := 0
	for l := range k {
		largest = max(largest, off[l+1])
		off[l+1] += off[l]
	}
	order := make([]int32, full.N)
	next := slices.Clone(off[:k])
	for n, l := range sp {
		order[next[l]] = int32(n)
		next[l]++
	}
	type scratch struct{ psi, q, cnt, eps, diff, zero []float64 }
	bufs := make([]scratch, m.workers)
	for w := range bufs {
		bufs[w] = scratch{
			psi: make([]float64, largest*C), q: make([]float64, largest*C),
			cnt: make([]float64, C), eps: make([]float64, C),
			diff: make([]float64, D), zero: make([]float64, C),
		}
	}
	labels := make([]int32, full.N)
	weight := 1 / float64(s*s)
	parallel.For(m.workers, k, func(w, l int) {
		px := order[off[l]:off[l+1]]
		if len(px) == 0 {
			return
		}
		b := &bufs[w]
		ci := min(int(centres[2*l])/span, m.GH-1)
		cj := min(int(centres[2*l+1])/span, m.GW-1)
		// ψ_nc = exp(φ_nc) of every pixel, and q(z_n) from the sticks of its cell.
		clear(b.cnt)
		for t, n := range px {
			psi := b.psi[t*C : (t+1)*C]
			m.expLogLiks(psi, b.zero, full.Y[int(n)*D:(int(n)+1)*D], b.diff)
			expShift(psi)
			y, x := int(n)/W, int(n)%W
			cell := min(y/span, m.GH-1)*m.GW + min(x/span, m.GW-1)
			responsibilities(b.q[t*C:(t+1)*C], cellEps[cell*C:(cell+1)*C], psi, weight, b.cnt)
		}
		for range superpixelSweeps {
			m.stickExpectations(b.cnt, ci, cj, alphaMean, b.eps)
			expShift(b.eps)
			clear(b.cnt)
			for t := range px {
				responsibilities(b.q[t*C:(t+1)*C], b.eps, b.psi[t*C:(t+1)*C], weight, b.cnt)
			}
		}
		for t, n := range px {
			labels[n] = int32(floats.MaxIdx(b.q[t*C : (t+1)*C]))
		}
	})
	return labels
}

// stickExpectations sets e_c = ⟨ln ϖ_c(x)⟩ (eq. (51)) for a location in cell (i, j)
// whose pixels hold the responsibilities cnt (eqs. (43)–(45), (53), (54)).
func (m *kpyp) stickExpectations(cnt []float64, i, j int, alphaMean float64, e []float64) {
	C := m.C
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

// shiftFloor bounds expShift's exponents below: e^−700 is still a normal float64.
const shiftFloor = 700

// expShift sets v_c = exp(v_c − max v), floored at e^−shiftFloor, in place: the
// factors of q(z_n) ∝ exp(⟨ln ϖ_c⟩)·exp(φ_nc), each scaled to a largest of 1, so a
// pixel's responsibilities in a sweep cost C products, not C exponentials.
func expShift(v []float64) {
	mx := slices.Max(v)
	for c, x := range v {
		v[c] = math.Exp(max(x-mx, -shiftFloor))
	}
}

// responsibilities sets q ∝ eps ⊙ psi (eq. (50) from the factors of expShift),
// normalised, and adds weight·q to cnt. Where every product underflows it normalises
// the sums of the factors' logarithms instead.
func responsibilities(q, eps, psi []float64, weight float64, cnt []float64) {
	var z float64
	for c := range q {
		q[c] = eps[c] * psi[c]
		z += q[c]
	}
	if z == 0 {
		for c := range q {
			q[c] = math.Log(eps[c]) + math.Log(psi[c])
		}
		expShift(q)
		for _, v := range q {
			z += v
		}
	}
	inv := 1 / z
	for c := range q {
		q[c] *= inv
		cnt[c] += weight * q[c]
	}
}
