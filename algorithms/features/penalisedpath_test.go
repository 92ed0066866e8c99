package features

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/internal/realdata"
	"featurelab/algorithms/learn"
	"featurelab/internal/accuracy"
)

// TestPenalisedPathTabletop: BP-means and collapsed BP-means with no λ² run at a grid
// of λ² and read K off the path of what they found, as stepwise does: on the real
// tabletop photos K = 5 (a base and one feature per object), at a λ² inside K = 5's
// interval, with a fit kept for every K on the path, the same for 1 and 4 workers.
func TestPenalisedPathTabletop(t *testing.T) {
	accuracy.Check(t)
	X := realdata.Tabletop(t)
	for _, tc := range []struct {
		name string
		fn   func(context.Context, *mat.Dense, learn.Options) (*learn.Result, error)
	}{{"bpmeans", BPMeans}, {"collapsed", CollapsedBPMeans}} {
		t.Run(tc.name, func(t *testing.T) {
			var first *learn.Result
			for _, workers := range []int{1, 4} {
				res, err := tc.fn(context.Background(), X, learn.Options{Restarts: 30, Seed: 1, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				path := LambdaPath(res.Curve)
				if res.K != 5 || len(path) < 3 || len(res.PathFits) != len(path) {
					t.Fatalf("K = %d, a path of %d and %d fits kept: %+v", res.K, len(path), len(res.PathFits), path)
				}
				for i, p := range path {
					if f := res.PathFits[i]; f.K != p.K || f.Objective != p.Objective || f.Z == nil || f.A == nil {
						t.Errorf("fit %d is K = %d (objective %v), the path's K = %d (%v)", i, f.K, f.Objective, p.K, p.Objective)
					}
					if p.K == 5 && !(res.Lambda2 > p.Lambda2Low && res.Lambda2 < p.Lambda2High) {
						t.Errorf("λ² = %v outside K = 5's interval [%v, %v]", res.Lambda2, p.Lambda2Low, p.Lambda2High)
					}
				}
				if first == nil {
					first = res
				} else if res.Objective != first.Objective || res.Lambda2 != first.Lambda2 || len(res.Curve) != len(first.Curve) {
					t.Errorf("4 workers: objective %v, λ² %v, %d K; 1 worker: %v, %v, %d", res.Objective, res.Lambda2, len(res.Curve),
						first.Objective, first.Lambda2, len(first.Curve))
				}
			}
		})
	}
}
