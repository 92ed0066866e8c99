package pipeline

import (
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
)

// Reading is one form of a result's features: its allocation Z and features A.
//
// A least-squares feature allocation has equivalent forms with the same fit: a feature
// flipped (z → 1 − z, the base gains it, the feature changes sign), or the base moved to
// another column. The readable form has a base owned by every image and, of each feature
// and its flip, the one that adds something to the base: the picture with the object, not
// the scene without it (orient). So the base is the emptiest scene — the table without the
// objects that come and go on it — however many images show each object. "As found" is
// whichever form the learner ended on. The window and the command line show the readable
// form unless asked otherwise; the codes, the CSV and the JSON follow the form shown.
type Reading struct {
	Z, A *mat.Dense
}

// Readable rewrites res in place into its readable form when algo's A is the
// least-squares fit to Z (a form of K-features or BP-means), and returns the learner's
// own form, or nil when it was readable already or cannot be rewritten.
func (p *Prepared) Readable(alg *algorithms.Algorithm, res *learn.Result) *Reading {
	if !alg.LeastSquares() {
		return nil
	}
	form := p.Objects().ReadableForm(res.Z, res.A, false)
	if form == nil || !form.WithBase {
		return nil
	}
	z, a := mat.DenseCopyOf(form.Z), mat.DenseCopyOf(form.A)
	if mat.Equal(z, res.Z) && mat.EqualApprox(a, res.A, 0) {
		return nil
	}
	found := &Reading{Z: res.Z, A: res.A}
	res.Z, res.A = z, a
	return found
}

// Clone is a deep copy of r, nil for nil.
func (r *Reading) Clone() *Reading {
	if r == nil {
		return nil
	}
	return &Reading{Z: CloneDense(r.Z), A: CloneDense(r.A)}
}

func CloneDense(m *mat.Dense) *mat.Dense {
	if m == nil || m.IsEmpty() {
		return m
	}
	return mat.DenseCopyOf(m)
}
