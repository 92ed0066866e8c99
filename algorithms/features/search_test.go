package features

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// TestSearchOnManyRows: with more rows than kfSearchRows the restarts search on a
// sample and their best fits are carried to every row. The planted features of 3 000
// rows are found as on 100 (TestKFeaturesSyntheticRecovery), down to the noise; the
// result does not depend on the number of workers; and no sample is drawn at or below
// kfSearchRows rows, so smaller folders are fitted as before.
func TestSearchOnManyRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	const n, k, d, noise = 3000, 5, 20, 1e-3
	X, Z, _ := kfSynthetic(rng, n, k, d, 300, noise)
	run := func(workers int) *learn.Result {
		res, err := KFeatures(context.Background(), X, learn.Options{K: k, Restarts: 200, Seed: 3, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(2)
	kfCheckResult(t, res, X)
	for j := range k {
		if m := kfColumnMatch(Z, res.Z, j); m < n*99/100 {
			t.Errorf("true feature %d matches a learned feature on %d of %d rows", j, m, n)
		}
	}
	// Only the noise is left: (N − K)·D·σ² ≈ 0.06.
	if want := 1.5 * float64((n-k)*d) * noise * noise; res.Objective > want {
		t.Errorf("objective %g, want the noise level (under %g)", res.Objective, want)
	}
	if len(res.RestartObjectives) != 200 {
		t.Errorf("%d restart objectives, want the 200 restarts'", len(res.RestartObjectives))
	}
	one := run(1)
	if !mat.Equal(one.Z, res.Z) || !mat.Equal(one.A, res.A) || one.Objective != res.Objective {
		t.Errorf("1 and 2 workers differ: objectives %v and %v", one.Objective, res.Objective)
	}
	// Raw pixels of a few hundred pictures are worked on through their LQ factor, whose
	// columns the sample's features are not in: those search on every row.
	wide, _, _ := kfSynthetic(rng, 600, 3, 2000, 50, noise)
	if p := newKFProblem(wide); p.x == p.orig || p.search() != nil {
		t.Errorf("600 rows of 2 000 values: LQ factor %v, sample %v; want the factor and no sample", p.x != p.orig, p.search() != nil)
	}
	for _, c := range []struct {
		rows   int
		search bool
	}{{kfSearchRows, false}, {kfSearchRows + 1, true}, {n, true}} {
		p := newKFProblem(mat.DenseCopyOf(X.Slice(0, c.rows, 0, d)))
		if s := p.search(); (s != nil) != c.search || s != nil && len(s.rows) != kfSearchRows {
			t.Errorf("%d rows: sample %v, want one of %d rows: %v", c.rows, s != nil, kfSearchRows, c.search)
		}
	}
}
