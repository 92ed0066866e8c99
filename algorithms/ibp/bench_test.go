package ibp

import (
	"context"
	"testing"

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
