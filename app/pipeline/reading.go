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

// readable rewrites res in place into its readable form when algo's A is the
// least-squares fit to Z (a form of K-features or BP-means), and returns the learner's
// own form, or nil when it was readable already or cannot be rewritten.
func (p *Prepared) readable(alg *algorithms.Algorithm, res *learn.Result) *Reading {
	if !alg.LeastSquares() {
		return nil
	}
	form := p.objects().ReadableForm(res.Z, res.A, false)
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

// SwitchReading is the analysis in its other reading — as found if it shows the
// readable form, readable if it shows the form as found — or a itself when there is no
// other (Other is nil). The result is a copy; a is unchanged. It checks the stability of
// the other form's features (up to a few seconds at K = 14 on 2 000 images): call it off
// the UI goroutine.
func (a *Analysis) SwitchReading() *Analysis {
	if a.Other == nil {
		return a
	}
	b := *a
	res := *a.Result
	res.Z, res.A = a.Other.Z, a.Other.A
	b.Result = &res
	b.Other = &Reading{Z: a.Result.Z, A: a.Result.A}
	b.AsFound = !a.AsFound
	// The other form's columns are other features (the base moved, some flipped): their
	// stability is checked on them.
	b.Stability = stability(b.fitted(), a.Algorithm, &res, a.Options.Seed)
	return &b
}

// Clone is a deep copy of r, nil for nil.
func (r *Reading) Clone() *Reading {
	if r == nil {
		return nil
	}
	return &Reading{Z: CloneDense(r.Z), A: CloneDense(r.A)}
}

// ReadingName names the reading shown: "readable" or "as found".
func (a *Analysis) ReadingName() string {
	if a.AsFound {
		return "as found"
	}
	return "readable"
}

func CloneDense(m *mat.Dense) *mat.Dense {
	if m == nil || m.IsEmpty() {
		return m
	}
	return mat.DenseCopyOf(m)
}
