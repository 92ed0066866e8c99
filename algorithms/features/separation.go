package features

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// SeparationClear is the separation from which a feature reads as on/off: the images
// that own it and those that do not fall apart. Chosen on generated photo folders
// (scenes), between what the objects that come and go separate by and what the features
// that model exposure changes do (docs/DESIGN.md, "Measurements behind the code").
const SeparationClear = 0.5

// Separation says, per feature, how cleanly the images split into those that show it and
// those that do not, which a binary feature claims they do. Each image's own amount of
// feature k is c_i = z_ik + ⟨x_i − z_i A, a_k⟩/‖a_k‖²: its code's 0 or 1 plus what its
// residual holds of the feature. For an object that comes and goes the owners' amounts sit
// near 1 and the others' near 0; for a change by degrees (exposure, a shift, a face's
// width) they run on from one to the other, the code only cutting the run in two. The
// separation is the gap between the 5th percentile of the owners' amounts and the 95th of
// the others' — 1 for a clean split, 0 or less when they blend — and NaN for a feature
// owned by fewer than two images or by all but one (the base).
func Separation(X, Z, A *mat.Dense) []float64 { return SeparationAt(X, Z, A, 0.05) }

// SeparationAt is Separation between the q-quantile of the owners' amounts and the
// (1 − q)-quantile of the others'.
func SeparationAt(X, Z, A *mat.Dense, q float64) []float64 {
	out := make([]float64, 0, A.RawMatrix().Rows)
	separations(X, Z, A, func(on, off []float64) {
		if on == nil {
			out = append(out, math.NaN())
			return
		}
		out = append(out, quantile(on, q)-quantile(off, 1-q))
	})
	return out
}

// SeparationEitherWay is, per feature, the larger of its SeparationAt and the
// separation of its flip (z → 1 − z, the base taking the feature, the feature turned
// over): the flip's amounts are one minus the others', so the two differ only where a
// quantile falls between two samples and each side rounds to its own. A feature below a
// margin here is below it in either form, so a rule on the readable form can be refused
// before the form is found.
func SeparationEitherWay(X, Z, A *mat.Dense, q float64) []float64 {
	out := make([]float64, 0, A.RawMatrix().Rows)
	separations(X, Z, A, func(on, off []float64) {
		if on == nil {
			out = append(out, math.NaN())
			return
		}
		asIs := quantile(on, q) - quantile(off, 1-q)
		// The flip's owners are the others, their amounts 1 − c, in reverse order.
		m, mOff := len(off), len(on)
		flipOn := 1 - off[m-1-int(math.Round(q*float64(m-1)))]
		flipOff := 1 - on[mOff-1-int(math.Round((1-q)*float64(mOff-1)))]
		out = append(out, max(asIs, flipOn-flipOff))
	})
	return out
}

// separations calls each with every feature's owners' and others' amounts, sorted, in
// column order; with nil, nil for a feature owned by fewer than two images or by all but
// one, or with no picture.
func separations(X, Z, A *mat.Dense, each func(on, off []float64)) {
	n, k := Z.Dims()
	var R mat.Dense
	R.Mul(Z, A)
	R.Sub(X, &R)
	amount := make([]float64, n)
	for f := 0; f < k; f++ {
		a := A.RawRowView(f)
		aa := floats.Dot(a, a)
		var on, off []float64
		for i := range amount {
			z := Z.At(i, f)
			amount[i] = z + floats.Dot(R.RawRowView(i), a)/aa
			if z != 0 {
				on = append(on, amount[i])
			} else {
				off = append(off, amount[i])
			}
		}
		if len(on) < 2 || len(off) < 2 || !(aa > 0) {
			each(nil, nil)
			continue
		}
		slices.Sort(on)
		slices.Sort(off)
		each(on, off)
	}
}

// quantile is the q-quantile of the sorted s, the nearest sample.
func quantile(s []float64, q float64) float64 {
	return s[int(math.Round(q*float64(len(s)-1)))]
}

// Gradual counts the features whose separation is below SeparationClear — those that
// vary by degrees rather than come and go, NaN included (a feature of one image is no
// object seen coming and going) — of all but the one numbered skip (the base; −1 for
// none), and how many were counted.
func Gradual(separation []float64, skip int) (gradual, counted int) {
	for k, s := range separation {
		if k == skip {
			continue
		}
		counted++
		if !(s >= SeparationClear) {
			gradual++
		}
	}
	return gradual, counted
}
