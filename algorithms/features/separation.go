package features

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// SeparationClear is the separation from which a feature reads as on/off: the images
// that own it and those that do not fall apart. Measured on generated photo folders
// (scenes): the objects that come and go separate by 0.67–0.97, the features that model
// exposure changes by 0.05–0.46.
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
	n, k := Z.Dims()
	var R mat.Dense
	R.Mul(Z, A)
	R.Sub(X, &R)
	out := make([]float64, k)
	amount := make([]float64, n)
	for f := range out {
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
			out[f] = math.NaN()
			continue
		}
		slices.Sort(on)
		slices.Sort(off)
		out[f] = quantile(on, q) - quantile(off, 1-q)
	}
	return out
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
