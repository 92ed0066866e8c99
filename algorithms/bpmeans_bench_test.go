package algorithms

import (
	"context"
	"math/rand/v2"
	"testing"
)

// go test -run XXX -bench 'BPMeans|Collapsed' -benchmem -benchtime 3x ./algorithms/

// BenchmarkBPMeansLambda20Restarts1000 is the tabletop run of the paper's §5 at the
// reference scaling: λ² = 20, 1000 restarts, all cores. The reference Octave code takes
// about 0.05 s a restart, 50 s in all.
func BenchmarkBPMeansLambda20Restarts1000(b *testing.B) {
	X := tabletopScores(b)
	b.ResetTimer()
	for b.Loop() {
		res, err := BPMeans(context.Background(), X, Options{Lambda2: 20, Restarts: 1000, Seed: 2})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.BPObjective, "bpobj")
		b.ReportMetric(float64(res.K), "K")
	}
}

// BenchmarkBPMeansRestart is one BP-means restart on one worker's warm scratch: the
// allocations it reports are those of the restart loop itself (expected 0).
func BenchmarkBPMeansRestart(b *testing.B) {
	X := tabletopScores(b)
	n, d := X.Dims()
	w := &bpWorker{st: newBPState(bpFlat(X), n, d), order: make([]int, n)}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ { // warm the scratch up to its working size
		w.run(context.Background(), 20, 1000, rng, nil)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := w.run(context.Background(), 20, 1000, rng, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCollapsedLambda20 is collapsed BP-means on the tabletop photos, λ² = 20,
// 100 restarts.
func BenchmarkCollapsedLambda20(b *testing.B) {
	X := tabletopScores(b)
	b.ResetTimer()
	for b.Loop() {
		res, err := CollapsedBPMeans(context.Background(), X, Options{Lambda2: 20, Restarts: 100, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.BPObjective, "bpobj")
		b.ReportMetric(float64(res.K), "K")
	}
}

// BenchmarkCollapsedRestart is one collapsed restart on warm scratch (expected 0 allocs).
func BenchmarkCollapsedRestart(b *testing.B) {
	X := tabletopScores(b)
	n, d := X.Dims()
	w := newCBPWorker(bpFlat(X), n, d)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ {
		w.run(context.Background(), 20, 1000, rng, nil)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := w.run(context.Background(), 20, 1000, rng, nil); err != nil {
			b.Fatal(err)
		}
	}
}
