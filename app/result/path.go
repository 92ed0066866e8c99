package result

import (
	"fmt"

	"featurelab/algorithms/features"
	"featurelab/algorithms/selection"
)

// Path is the analysis's λ² path, or nil when its result has no fits to switch between
// (any learner but stepwise run without a λ²).
func (a *Analysis) Path() []selection.PathEntry {
	if len(a.Result.PathFits) == 0 {
		return nil
	}
	var out []selection.PathEntry
	for _, p := range features.LambdaPath(a.Result.Curve) {
		out = append(out, selection.PathEntry{K: p.K, Low: p.Lambda2Low, High: p.Lambda2High})
	}
	return out
}

// AtK is the analysis with the result at another K of its λ² path: that K's best fit,
// kept by the run, in the reading a shows (Analysis.AsFound), at a λ² inside its
// interval. No learner runs again, so the switch is immediate.
func (a *Analysis) AtK(k int) (*Analysis, error) {
	res, err := selection.AtK(a.Result, k)
	if err != nil {
		return nil, err
	}
	b := *a
	b.Result, b.AsFound = res, false
	b.Other = a.Readable(a.Algorithm, res)
	b.Stability = selection.Stability(b.fitted(), a.Algorithm, res, a.Options.Seed) // of the form shown
	if a.AsFound {
		return b.SwitchReading(), nil
	}
	return &b, nil
}

// KNote is, for a run that chose its own K off its λ² path, why that K should not be
// taken for a count of things, or "" when it can: when most of its features vary by
// degrees (Separation below features.SeparationClear: a face's width, lighting) rather
// than come and go, no K counts objects, and the path's other K are as good a reading:
// most of the ORL faces' features are gradual; none of the tabletop photos' is.
// Whatever the learner's K, a folder with no objects that come and go (NoObjects: most
// features neither stable nor cleanly split, as on a deck of distinct cards) is said so.
func (a *Analysis) KNote() string {
	if n, counted := a.patternCount(); noObjects(n, counted) {
		return a.noObjectsNote(n, counted)
	}
	if a.Path() == nil {
		return ""
	}
	gradual, counted := features.Gradual(a.Separation(), a.BaseIndex())
	if counted == 0 || 2*gradual <= counted {
		return ""
	}
	return fmt.Sprintf("No K stands out: %d of the %d features vary by degrees rather than come and go, so K = %d counts no objects; the λ² path offers the others", gradual, counted, a.Result.K)
}
