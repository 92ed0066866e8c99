package encoding

import (
	"math"
	"math/bits"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/features"
)

// meanFieldSweeps bounds the mean-field passes above features.EncodeExactK features;
// meanFieldTol is the largest change of a probability at which they stop earlier.
const (
	meanFieldSweeps = 200
	meanFieldTol    = 1e-9
)

// probabilities are, for an IBP analysis (e.Noise > 0), each row's probabilities of
// owning each feature in column order, the base at 1; nil for the other learners.
//
// The IBP's model of a new image x given the features A (held at the posterior mean) is
// x = zA + ε, ε ~ N(0, σ_X² I), each z_k ~ Bernoulli(Prior_k); so p(z | x) ∝
// Π_k π_k^{z_k}(1 − π_k)^{1−z_k} · exp(−‖x − zA‖² / 2σ_X²), and p(z_k = 1 | x) sums it over
// the codes with z_k = 1, marginalising the other bits. The squared norm is taken in
// pixels, where the feature pictures F are A mapped back (scale s = the PCA's): ‖x − zA‖²
// in scores is (‖r − zF‖² less the part of r outside the features' span, the same for
// every code)/s², so with σ = σ_X·s (Noise) only the code-dependent part
// zGzᵀ − 2z·b (G = FFᵀ, b = Fr) enters, as in features.Encode. Up to
// features.EncodeExactK free features every code is summed, in Gray-code order with
// one flip per step; above, mean-field: q_k = sigmoid(logit π_k − (G_kk − 2b_k +
// 2Σ_{j≠k} G_kj q_j)/2σ²), from the image's code, to a fixed point. rows are the images
// less the mean and the base; codes their codes, where the mean field starts.
func (e *Encoder) probabilities(X, F *mat.Dense, free []int, codes []string) [][]float64 {
	if e.Noise <= 0 {
		return nil
	}
	n, _ := X.Dims()
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, e.K)
		if e.Base >= 0 {
			out[i][e.Base] = 1
		}
	}
	k := len(free)
	if k == 0 {
		return out
	}
	var G mat.Dense
	G.Mul(F, F.T())
	inv2s2 := 1 / (2 * e.Noise * e.Noise)
	logit := make([]float64, k)
	for j, f := range free {
		p := e.Prior[f]
		logit[j] = math.Log(p) - math.Log1p(-p)
	}
	b := make([]float64, k)
	q := make([]float64, k)
	for i := 0; i < n; i++ {
		x := X.RawRowView(i)
		for j := range b {
			b[j] = floats.Dot(F.RawRowView(j), x)
		}
		if k <= features.EncodeExactK {
			exactMarginals(&G, b, logit, inv2s2, q)
		} else {
			for j, f := range free {
				q[j] = 0
				if codes[i][f] == '1' {
					q[j] = 1
				}
			}
			meanField(&G, b, logit, inv2s2, q)
		}
		for j, f := range free {
			out[i][f] = q[j]
		}
	}
	return out
}

// exactMarginals sets q_k to p(z_k = 1) under log weight logw(z) = Σ_k z_k·logit_k −
// (zGzᵀ − 2z·b)·inv2s2 over all 2^K codes, walking them in Gray-code order and summing
// the weights relative to the largest met so far (so that no exp overflows).
func exactMarginals(G *mat.Dense, b, logit []float64, inv2s2 float64, q []float64) {
	k := len(b)
	z := make([]bool, k)
	s := make([]float64, k) // Gz for the current code
	var quad, lin float64   // zGzᵀ − 2z·b and Σ z_k·logit_k
	top, total := 0.0, 1.0  // the all-zero code: log weight 0, weight 1
	for j := range q {
		q[j] = 0
	}
	for step := uint64(1); step < 1<<k; step++ {
		j := bits.TrailingZeros64(step)
		gjj := G.At(j, j)
		if z[j] {
			quad -= 2*(s[j]-gjj) + gjj - 2*b[j]
			lin -= logit[j]
			floats.AddScaled(s, -1, G.RawRowView(j))
		} else {
			quad += 2*s[j] + gjj - 2*b[j]
			lin += logit[j]
			floats.Add(s, G.RawRowView(j))
		}
		z[j] = !z[j]
		lw := lin - quad*inv2s2
		if lw > top {
			scale := math.Exp(top - lw)
			total *= scale
			floats.Scale(scale, q)
			top = lw
		}
		w := math.Exp(lw - top)
		total += w
		for m, on := range z {
			if on {
				q[m] += w
			}
		}
	}
	floats.Scale(1/total, q)
}

// meanField iterates q to the mean-field fixed point of the same weights, in column
// order, from the q given.
func meanField(G *mat.Dense, b, logit []float64, inv2s2 float64, q []float64) {
	for sweep := 0; sweep < meanFieldSweeps; sweep++ {
		change := 0.0
		for j := range q {
			row := G.RawRowView(j)
			field := floats.Dot(row, q) - row[j]*q[j] // Σ_{m≠j} G_jm q_m
			a := logit[j] - (row[j]-2*b[j]+2*field)*inv2s2
			next := 1 / (1 + math.Exp(-a))
			change = max(change, math.Abs(next-q[j]))
			q[j] = next
		}
		if change < meanFieldTol {
			return
		}
	}
}
