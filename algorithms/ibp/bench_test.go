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

// BenchmarkIBPSweepAtK is one sweep on tabletop-sized data (100 images × 99 PCA
// dimensions, the real photos' rms) at fixed K = 5, 10, 20 and 40, with the mixing moves
// as shipped and off (one feature of a row drawn at a time, no column moves). The data
// are K random features (each row owning each with probability 0.3, values at the data's
// scale) plus noise at a tenth of it, and the chain starts at their Z with no births
// (maxNew = 0), so that K stays where it is put (random features on the real photos die
// off: 40 fell to 22); 20 sweeps settle it before the timing. Beside ns/op it reports
// the K swept and each phase's time: the rows (rows-ns), α and the Gram matrix
// (hyper-ns), the column moves (moves-ns), σ_X, σ_A and the inverse (sigmas-ns) — the
// calls of chain.sweep, made one by one to time them.
func BenchmarkIBPSweepAtK(b *testing.B) {
	X := realdata.Tabletop(b)
	n, d := X.Dims()
	scale := rms(X)
	ctx := context.Background()
	for _, k := range []int{5, 10, 20, 40} {
		rng := rand.New(rand.NewPCG(uint64(k), 1))
		z := make([]float64, n*k)
		for i := range z {
			if rng.Float64() < 0.3 {
				z[i] = 1
			}
		}
		a := make([]float64, k*d)
		for i := range a {
			a[i] = scale * rng.NormFloat64()
		}
		x := make([]float64, n*d)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				v := 0.1 * scale * rng.NormFloat64()
				for f := 0; f < k; f++ {
					v += z[i*k+f] * a[f*d+j]
				}
				x[i*d+j] = v
			}
		}
		for _, mode := range []struct {
			name        string
			block, cols int
		}{{"shipped", block, colMoves}, {"no-mixing-moves", 1, 0}} {
			b.Run(fmt.Sprintf("K=%d/%s", k, mode.name), func(b *testing.B) {
				cfg := defaultConfig()
				cfg.block, cfg.colMoves, cfg.maxNew = mode.block, mode.cols, 0
				c := newChain(cfg, learn.RestartRNG(1, k), x, n, d, z, k, 1, 0.1*scale, scale)
				for t := range 20 {
					if err := c.sweep(ctx, t, false); err != nil {
						b.Fatal(err)
					}
				}
				var rows, hyper, moves, sigmas time.Duration
				sweeps, ks := 0, 0
				for b.Loop() {
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
					c.sampleSigmas(20+sweeps, false)
					c.invert(c.lambda())
					t4 := time.Now()
					if c.err != nil {
						b.Fatal(c.err)
					}
					rows, hyper, moves, sigmas = rows+t1.Sub(start), hyper+t2.Sub(t1), moves+t3.Sub(t2), sigmas+t4.Sub(t3)
					sweeps, ks = sweeps+1, ks+c.k
				}
				per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(sweeps) }
				b.ReportMetric(float64(ks)/float64(sweeps), "K")
				b.ReportMetric(per(rows), "rows-ns/op")
				b.ReportMetric(per(hyper), "hyper-ns/op")
				b.ReportMetric(per(moves), "moves-ns/op")
				b.ReportMetric(per(sigmas), "sigmas-ns/op")
			})
		}
	}
}
