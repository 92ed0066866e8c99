package result

import (
	"featurelab/algorithms/selection"
	"featurelab/app/pipeline"
)

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
	b.Other = &pipeline.Reading{Z: a.Result.Z, A: a.Result.A}
	b.AsFound = !a.AsFound
	// The other form's columns are other features (the base moved, some flipped): their
	// stability is checked on them.
	b.Stability = selection.Stability(b.fitted(), a.Algorithm, &res, a.Options.Seed)
	return &b
}

// ReadingName names the reading shown: "readable" or "as found".
func (a *Analysis) ReadingName() string {
	if a.AsFound {
		return "as found"
	}
	return "readable"
}
