package pipeline

import (
	"fmt"
	"math"

	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
)

// PathEntry is one K a stepwise run's λ² path offers: the best K for every λ² from Low
// to High (+Inf for the smallest K).
type PathEntry struct {
	K         int
	Low, High float64
}

// Path is the analysis's λ² path, or nil when its result has no fits to switch between
// (any learner but stepwise run without a λ²).
func (a *Analysis) Path() []PathEntry {
	if len(a.Result.PathFits) == 0 {
		return nil
	}
	var out []PathEntry
	for _, p := range features.LambdaPath(a.Result.Curve) {
		out = append(out, PathEntry{K: p.K, Low: p.Lambda2Low, High: p.Lambda2High})
	}
	return out
}

// AtK is the analysis with the result at another K of its λ² path: that K's best fit,
// kept by the run, in the reading a shows (Analysis.AsFound), at a λ² inside its
// interval. No learner runs again, so the switch is immediate.
func (a *Analysis) AtK(k int) (*Analysis, error) {
	res, err := atPathK(a.Result, k)
	if err != nil {
		return nil, err
	}
	b := *a
	b.Result, b.AsFound = res, false
	b.Other = a.readable(a.Algorithm, res)
	b.Stability = stability(b.fitted(), a.Algorithm, res, a.Options.Seed) // of the form shown
	if a.AsFound {
		return b.SwitchReading(), nil
	}
	return &b, nil
}

// atPathK is r with its result at K = k of its λ² path, the fit the run kept (with its
// restarts' objectives, where the run kept them), at a λ² inside k's interval; r is
// unchanged.
func atPathK(r *learn.Result, k int) (*learn.Result, error) {
	var entry *features.PathPoint
	for _, p := range features.LambdaPath(r.Curve) {
		if p.K == k {
			entry = &p
		}
	}
	for _, f := range r.PathFits {
		if f.K != k || entry == nil {
			continue
		}
		res := *r
		res.K, res.Objective = f.K, f.Objective
		res.Z, res.A = f.Z, f.A
		if f.RestartObjectives != nil {
			res.RestartObjectives = f.RestartObjectives // the restarts of the K shown
		}
		res.Lambda2 = PathEntry{K: k, Low: entry.Lambda2Low, High: entry.Lambda2High}.centre()
		res.BPObjective = res.Objective + res.Lambda2*float64(res.K)
		res.Curve = make([]learn.CurvePoint, len(r.Curve))
		for i, c := range r.Curve {
			res.Curve[i] = learn.CurvePoint{K: c.K, Objective: c.Objective, BPObjective: c.Objective + res.Lambda2*float64(c.K)}
		}
		return &res, nil
	}
	return nil, fmt.Errorf("K = %d is not on this run's λ² path", k)
}

// centre is a λ² inside the interval: its geometric centre, or for the interval of the
// smallest K (up to +Inf) twice its low end, and for the largest (down to 0) half its
// high end.
func (e PathEntry) centre() float64 {
	switch {
	case math.IsInf(e.High, 1):
		return 2 * e.Low
	case !(e.Low > 0):
		return e.High / 2
	}
	return math.Sqrt(e.Low * e.High)
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
