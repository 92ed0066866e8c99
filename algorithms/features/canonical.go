package features

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// WithBase rewrites a least-squares feature allocation in its readable form without
// changing what it explains: a base feature owned by every image, in column 0, and every
// other feature owned by at most half of the images. Which of a feature and its flip adds
// an object is a question about pictures, not counts; app/pipeline asks it next (its
// orient), from this form.
//
// K-features and BP-means identify features only up to a change of basis that keeps Z
// binary: when the all-ones column lies in the span of Z's columns, replacing one column
// by it, or a column z_k by its complement 1 − z_k, leaves the span, and so the
// least-squares fit ZA and the objective ‖X − ZA‖², unchanged. Restarts land on any of
// these forms (a "base" owned by 60 of 100 images, features that mix two objects); this
// picks the one the MAD-Bayes paper draws (Fig. 2): the base, then features that add or
// subtract what the images owning them have.
//
// It returns the new Z and A (A = (Z'Z)⁻¹Z'X) and true, or the inputs and false when
// the all-ones column is not in the span of Z, or the rewrite would not reproduce the fit.
func WithBase(X, Z, A *mat.Dense) (*mat.Dense, *mat.Dense, bool) {
	if Z == nil || A == nil || Z.IsEmpty() {
		return Z, A, false
	}
	n, k := Z.Dims()
	base := baseColumn(Z)
	if base < 0 {
		return Z, A, false
	}
	Zb := mat.NewDense(n, k, nil)
	for i := 0; i < n; i++ {
		row, out := Z.RawRowView(i), Zb.RawRowView(i)
		out[0] = 1
		c := 1
		for j, v := range row {
			if j != base {
				out[c] = v
				c++
			}
		}
	}
	// With the base in place, complementing a column keeps the span; the sparser of the
	// two reads as "the images that have this".
	for j := 1; j < k; j++ {
		owners := 0
		for i := 0; i < n; i++ {
			owners += int(Zb.At(i, j))
		}
		if 2*owners > n {
			for i := 0; i < n; i++ {
				Zb.Set(i, j, 1-Zb.At(i, j))
			}
		}
	}
	_, d := X.Dims()
	Ab := mat.NewDense(k, d, nil)
	if err := aStep(Ab, Zb, X, nil); err != nil {
		return Z, A, false
	}
	before, after := learn.ResidualSS(X, Z, A), learn.ResidualSS(X, Zb, Ab)
	if math.IsNaN(after) || after > before+1e-9*math.Max(before, 1) {
		return Z, A, false
	}
	return Zb, Ab, true
}

// baseColumn returns a column of Z that can be replaced by the all-ones column without
// changing Z's span: a column that is all ones already, or else the column with the
// largest weight c_j in the exact solution of Zc = 1. It returns −1 when 1 is not in the
// span of Z's columns.
func baseColumn(Z *mat.Dense) int {
	n, k := Z.Dims()
	for j := 0; j < k; j++ {
		all := true
		for i := 0; i < n && all; i++ {
			all = Z.At(i, j) == 1
		}
		if all {
			return j
		}
	}
	ones := mat.NewVecDense(n, nil)
	for i := 0; i < n; i++ {
		ones.SetVec(i, 1)
	}
	var qr mat.QR
	qr.Factorize(Z)
	var c mat.VecDense
	if err := qr.SolveVecTo(&c, false, ones); err != nil {
		return -1
	}
	var fit mat.VecDense
	fit.MulVec(Z, &c)
	fit.SubVec(&fit, ones)
	if mat.Norm(&fit, 2) > 1e-8*math.Sqrt(float64(n)) {
		return -1
	}
	best, bestC := -1, 1e-8
	for j := 0; j < k; j++ {
		if a := math.Abs(c.AtVec(j)); a > bestC {
			best, bestC = j, a
		}
	}
	return best
}
