package ibp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"featurelab/algorithms/internal/realdata"
	"featurelab/algorithms/learn"
)

// BenchmarkIBPTabletop1000Sweeps is one 1000-sweep chain on the real tabletop photos
// (PCA-100 scores, 100 × 99).
func BenchmarkIBPTabletop1000Sweeps(b *testing.B) {
	realdata.BenchTabletop(b, Gibbs, learn.Options{Seed: 1, Workers: 1})
}

// BenchmarkIBPTetrisSweep is one sweep on the tetris data (100 × 36) at its posterior
// (K = 5): the per-sweep cost and allocations of the hot loop.
func BenchmarkIBPTetrisSweep(b *testing.B) {
	X, _, Z := tetris(1)
	res, err := Gibbs(context.Background(), X, learn.Options{InitZ: Z, Seed: 1, Sweeps: 20, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	n, d := X.Dims()
	c := newChain(defaultConfig(), learn.RestartRNG(1, 0), X.RawMatrix().Data, n, d,
		res.Z.RawMatrix().Data, res.K, res.Alpha, res.SigmaX, res.SigmaA)
	ctx := context.Background()
	b.ReportAllocs()
	t := 0
	for b.Loop() {
		if err := c.sweep(ctx, t, false); err != nil {
			b.Fatal(err)
		}
		t++
	}
}

// BenchmarkIBPSweepAtK is one sweep on tabletop-sized data (the real photos' PCA-100
// scores, 100 × 99) starting at K = 5, 10, 20 and 40 features (each row owning each with
// probability 0.3), with the moves as shipped and with the mixing moves off (one
// feature of a row drawn at a time, no column moves). Beside ns/op it reports each
// phase's share of the sweep: the rows (rows-ns), α and the Gram matrix (hyper-ns), the
// column moves (moves-ns), σ_X, σ_A and the inverse (sigmas-ns). The phases are the
// calls of chain.sweep, made one by one to time them.
func BenchmarkIBPSweepAtK(b *testing.B) {
	X := realdata.Tabletop(b)
	n, d := X.Dims()
	x := X.RawMatrix().Data
	scale := rms(X)
	for _, k := range []int{5, 10, 20, 40} {
		rng := rand.New(rand.NewPCG(uint64(k), 1))
		z := make([]float64, n*k)
		for i := range z {
			if rng.Float64() < 0.3 {
				z[i] = 1
			}
		}
		for _, mode := range []struct {
			name        string
			block, cols int
		}{{"shipped", block, colMoves}, {"no-mixing-moves", 1, 0}} {
			b.Run(fmt.Sprintf("K=%d/%s", k, mode.name), func(b *testing.B) {
				cfg := defaultConfig()
				cfg.block, cfg.colMoves = mode.block, mode.cols
				var rows, hyper, moves, sigmas time.Duration
				ctx := context.Background()
				t := 0
				for b.Loop() {
					b.StopTimer()
					c := newChain(cfg, learn.RestartRNG(1, t), x, n, d, z, k, 1, scale/4, scale)
					b.StartTimer()
					start := time.Now()
					if err := c.rows(ctx); err != nil {
						b.Fatal(err)
					}
					t1 := time.Now()
					c.sampleAlpha()
					c.gram(-1)
					c.setLogLik()
					t2 := time.Now()
					c.columnMoves(c.cfg.colMoves)
					t3 := time.Now()
					c.sampleSigmas(t, false)
					c.invert(c.lambda())
					t4 := time.Now()
					if c.err != nil {
						b.Fatal(c.err)
					}
					rows, hyper, moves, sigmas = rows+t1.Sub(start), hyper+t2.Sub(t1), moves+t3.Sub(t2), sigmas+t4.Sub(t3)
					t++
				}
				per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(t) }
				b.ReportMetric(per(rows), "rows-ns/op")
				b.ReportMetric(per(hyper), "hyper-ns/op")
				b.ReportMetric(per(moves), "moves-ns/op")
				b.ReportMetric(per(sigmas), "sigmas-ns/op")
			})
		}
	}
}
