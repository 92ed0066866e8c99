package features

import (
	"context"
	"math/rand/v2"
	"testing"

	"featurelab/algorithms/internal/realdata"
	"featurelab/algorithms/learn"
)

// BenchmarkKFeaturesK5Restarts1000 is the paper's tabletop run at K = 5: 1000 restarts on
// the 100 PCA-100 scores (the reference Octave code takes 63.5 s).
func BenchmarkKFeaturesK5Restarts1000(b *testing.B) {
	realdata.BenchTabletop(b, KFeatures, learn.Options{K: 5, Restarts: 1000, Seed: 1})
}

// BenchmarkStepwiseLambda20Restarts300 is stepwise K-features on tabletop with λ² = 20
// and 300 restarts per K (K = 1…6 are tried).
func BenchmarkStepwiseLambda20Restarts300(b *testing.B) {
	realdata.BenchTabletop(b, Stepwise, learn.Options{Lambda2: 20, Restarts: 300, Seed: 1})
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

// BenchmarkZBlocksK16 is the block Z-step of one row at K = 16 (kfExactK < K), from a
// random code: the per-row cost of an iteration at large K, against 2^16 codes for the
// exact walk.
func BenchmarkZBlocksK16(b *testing.B) {
	const k = 16
	rng := rand.New(rand.NewPCG(1, 1))
	_, g, _, bs := kfRandomAX(rng, k, 20, 64)
	zb := newZBlocks(k)
	zb.setGram(g)
	starts := make([]uint64, len(bs))
	for i := range starts {
		starts[i] = rng.Uint64() & (1<<k - 1)
	}
	var sink uint64
	for i := 0; b.Loop(); i++ {
		z, _ := zb.step(bs[i%len(bs)], g, starts[i%len(bs)], 1e-12)
		sink += z
	}
	_ = sink
}

// BenchmarkStepwisePathORL is stepwise with no λ² on the 400 ORL faces (PCA 100) at the
// defaults: the λ² path up to where the objective flattens (issue 16: ≤ 5 s).
func BenchmarkStepwisePathORL(b *testing.B) {
	X := realdata.ORL(b)
	b.ResetTimer()
	for b.Loop() {
		res, err := Stepwise(context.Background(), X, learn.Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.K), "K")
		b.ReportMetric(float64(len(res.Curve)), "K-tried")
	}
}

// go test -run XXX -bench 'BPMeans|Collapsed' -benchmem -benchtime 3x ./algorithms/features/

// BenchmarkBPMeansLambda20Restarts1000 is the tabletop run of the paper's §5 at the
// reference scaling: λ² = 20, 1000 restarts, all cores. The reference Octave code takes
// about 0.05 s a restart, 50 s in all.
func BenchmarkBPMeansLambda20Restarts1000(b *testing.B) {
	X := realdata.Tabletop(b)
	b.ResetTimer()
	for b.Loop() {
		res, err := BPMeans(context.Background(), X, learn.Options{Lambda2: 20, Restarts: 1000, Seed: 2})
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
	X := realdata.Tabletop(b)
	n, d := X.Dims()
	w := &bpWorker{st: newBPState(learn.FlatRows(X), n, d), order: make([]int, n)}
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
	X := realdata.Tabletop(b)
	b.ResetTimer()
	for b.Loop() {
		res, err := CollapsedBPMeans(context.Background(), X, learn.Options{Lambda2: 20, Restarts: 100, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.BPObjective, "bpobj")
		b.ReportMetric(float64(res.K), "K")
	}
}

// BenchmarkCollapsedRestart is one collapsed restart on warm scratch (expected 0 allocs).
func BenchmarkCollapsedRestart(b *testing.B) {
	X := realdata.Tabletop(b)
	n, d := X.Dims()
	w := newCBPWorker(learn.FlatRows(X), n, d)
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

// BenchmarkBPMeansPathORL is BP-means with no λ² on the 400 ORL faces (PCA 100) at the
// defaults: runs at a grid of λ², then the path's backward pass.
func BenchmarkBPMeansPathORL(b *testing.B) {
	X := realdata.ORL(b)
	b.ResetTimer()
	for b.Loop() {
		res, err := BPMeans(context.Background(), X, learn.Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.K), "K")
		b.ReportMetric(res.Lambda2, "lambda2")
	}
}

// BenchmarkBPMeansPathTabletop is the same on the 100 real tabletop photos (PCA 100).
func BenchmarkBPMeansPathTabletop(b *testing.B) {
	realdata.BenchTabletop(b, BPMeans, learn.Options{Seed: 1})
}

// BenchmarkZStepExactRowsK5 is the exact Z-step of 64 rows at once at K = 5, the way
// kfWork.zStep calls it: against 64 times BenchmarkZStepExactK5.
func BenchmarkZStepExactRowsK5(b *testing.B) {
	const k, n = 5, 64
	rng := rand.New(rand.NewPCG(1, 1))
	_, g, _, bs := kfRandomAX(rng, k, 20, n)
	walk := newGrayWalk(k)
	q, qg := make([]float64, 1<<k), make([]float64, 1<<k)
	quadTable(q, qg, g, k)
	bt, out := asColumns(bs, k), make([]uint64, n)
	cur, tol := randomStarts(rng, n, k)
	for b.Loop() {
		zStepExactRows(bt, q, qg, walk, cur, tol, out)
	}
}

// BenchmarkZBlocksRowsK16 is the block Z-step of 64 rows at once at K = 16 from random
// codes, the way kfWork.zStep calls it: against 64 times BenchmarkZBlocksK16.
func BenchmarkZBlocksRowsK16(b *testing.B) {
	const k, n = 16, 64
	rng := rand.New(rand.NewPCG(1, 1))
	_, g, _, bs := kfRandomAX(rng, k, 20, n)
	zb := newZBlocks(k)
	zb.setGram(g)
	bt, out := asColumns(bs, k), make([]uint64, n)
	cur, tol := randomStarts(rng, n, k)
	for b.Loop() {
		zb.stepRows(bt, g, cur, tol, out)
	}
}

// BenchmarkKFeaturesManyRows is K-features at K = 10 with 100 restarts on 2 000 rows of
// 100 values (planted features under noise, as a large folder's PCA scores): the
// restarts searching on a sample of kfSearchRows rows and carried to all of them, and,
// side by side, all 100 run on every row.
func BenchmarkKFeaturesManyRows(b *testing.B) {
	X, _, _ := kfSynthetic(rand.New(rand.NewPCG(71, 72)), 2000, 10, 100, 100, 2)
	cfg := learn.Config{Restarts: 100, MaxIter: 1000, Workers: 0}
	p := newKFProblem(X)
	for _, c := range []struct {
		name string
		fit  func() (*kfFit, error)
	}{
		{"searched", func() (*kfFit, error) { return p.best(context.Background(), 10, cfg, 1, nil, nil) }},
		{"whole", func() (*kfFit, error) { return p.restarts(context.Background(), 10, cfg, 1, nil, nil, nil) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.fit(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
