package selection

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

// AtK is r with its result at K = k of its λ² path, the fit the run kept (with its
// restarts' objectives, where the run kept them), at a λ² inside k's interval; r is
// unchanged.
func AtK(r *learn.Result, k int) (*learn.Result, error) {
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
