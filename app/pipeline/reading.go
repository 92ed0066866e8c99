package pipeline

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/imgproc"
	"featurelab/internal/parallel"
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
	form := p.readableForm(res.Z, res.A, false)
	if form == nil || !form.withBase {
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

// orient flips, in Z and A with the base in column 0, every feature whose picture holds
// less than the base where they differ (imgproc.Holds: less outline, the light of a
// shadow the base has, or the darkness of a lamp's light it lacks): such a feature is
// the scene without an object that the base holds, and its flip adds the object to a base
// without it. The fit is unchanged. It flips the clearest case first and judges the rest
// again against the base that leaves, since a base rid of one object reads the others
// better; it stops when every feature adds, or after 2K flips should two features keep
// trading places. The pictures are mapped back once: a flip adds the feature's picture
// to the base's and turns its own over, as it does their scores. With energy, it returns
// the oriented features' energies (featureEnergy, row 0 nil), read off those pictures;
// else, or when there are no pictures to read, nil.
func (p *Prepared) orient(Z, A *mat.Dense, energy bool) [][]float64 {
	if p.PCA == nil || p.Data == nil {
		return nil // scores with no pictures behind them (a test's): nothing to look at
	}
	n, k := Z.Dims()
	ds := p.Data
	pix := p.PCA.InverseDense(A)
	// Row 0 the base's picture; rows 1… each feature's own, without the mean.
	mean := p.PCA.MeanPixels()
	for j := 1; j < k; j++ {
		floats.Sub(pix.RawRowView(j), mean)
	}
	base := pix.RawRowView(0)
	// Where each feature acts, and its own blurs there, do not change with the base.
	changes := make([]*imgproc.Change, k)
	scratch := make([]imgproc.Picture, p.workerCount())
	parallel.For(len(scratch), k-1, func(w, i int) {
		changes[i+1] = imgproc.NewChange(pix.RawRowView(i+1), ds.Width, ds.Height, ds.Channels, &scratch[w])
	})
	holds := make([]float64, k)
	energies := func() [][]float64 {
		if !energy {
			return nil
		}
		out := make([][]float64, k)
		for j := 1; j < k; j++ {
			out[j] = p.energyOf(pix.RawRowView(j), nil)
		}
		return out
	}
	without := imgproc.NewPicture(base, ds.Width, ds.Height, ds.Channels)
	if without == nil {
		return energies() // pictures too small to read (under 2 × 2): the form as found stands
	}
	for round := 0; round < 2*k; round++ {
		without.Changed()
		without.PrepareFor(changes[1:]) // read by every feature's comparison at once
		parallel.For(p.workerCount(), k-1, func(_, i int) {
			holds[i+1] = without.HoldsChange(changes[i+1])
		})
		worst, most := -1, 0.0
		for j := 1; j < k; j++ {
			if h := -holds[j]; h > most {
				worst, most = j, h
			}
		}
		if worst < 0 {
			return energies()
		}
		for i := 0; i < n; i++ {
			Z.Set(i, worst, 1-Z.At(i, worst))
		}
		floats.Add(A.RawRowView(0), A.RawRowView(worst))
		floats.Scale(-1, A.RawRowView(worst))
		floats.Add(base, pix.RawRowView(worst))
		floats.Scale(-1, pix.RawRowView(worst))
		changes[worst].Negate()
	}
	return energies()
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
