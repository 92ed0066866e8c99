package algorithms

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkKFeaturesK5Restarts1000 is the paper's tabletop run at K = 5: 1000 restarts on
// the 100 PCA-100 scores (the reference Octave code takes 63.5 s).
func BenchmarkKFeaturesK5Restarts1000(b *testing.B) {
	X := tabletopScores(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := KFeatures(context.Background(), X, Options{K: 5, Restarts: 1000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepwiseLambda20Restarts300 is stepwise K-features on tabletop with λ² = 20
// and 300 restarts per K (K = 1…6 are tried).
func BenchmarkStepwiseLambda20Restarts300(b *testing.B) {
	X := tabletopScores(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Stepwise(context.Background(), X, Options{Lambda2: 20, Restarts: 300, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkZStepExactK5 is the exact Z-step of one row at K = 5 (32 codes), given b and the
// quadratic table: the per-row cost of every iteration.
func BenchmarkZStepExactK5(b *testing.B) {
	const k = 5
	rng := rand.New(rand.NewPCG(1, 1))
	_, g, _, bs := kfRandomAX(rng, k, 20, 64)
	walk := newGrayWalk(k)
	q, qg := make([]float64, 1<<k), make([]float64, 1<<k)
	quadTable(q, qg, g, k)
	var bb [2 * maxExactK]float64
	var sink uint64
	for i := 0; b.Loop(); i++ {
		z, _ := zStepExact(bs[i%len(bs)], q, qg, walk, &bb, 0, 1e-12)
		sink += z
	}
	_ = sink
}
