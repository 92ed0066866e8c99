package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
	"featurelab/internal/parallel"
)

// TestLongLoopsStopWhenCancelled cancels K-means and the hard HDP with many clusters from
// inside their own progress reports, in each long loop in turn: each returns the
// context's error, and the loop stops where it stood, with no report of it after the
// cancel. Before, a K of thousands seeded and assigned every row before looking.
func TestLongLoopsStopWhenCancelled(t *testing.T) {
	n, d := 4*parallel.ChunkRows, 3
	x := pixelRows(n, d)
	X := mat.NewDense(n, d, x)
	lloyd := func(ctx context.Context, report func(string, int, int)) error {
		km := NewLloyd(x, n, d, 1024, 1)
		km.Report = report
		cent, assign := make([]float64, 1024*d), make([]int, n)
		if err := km.Seed(ctx, rand.New(rand.NewPCG(1, 1)), cent, assign); err != nil {
			return err
		}
		_, err := km.Run(ctx, cent, assign, 10, nil)
		return err
	}
	// With λ given, large enough that restart 0 (one cluster, unseeded) opens none and
	// ends at once, restart 1 seeds; with none, λ_bottom is proposed first.
	hdp := func(lambda float64) func(context.Context, func(string, int, int)) error {
		return func(ctx context.Context, report func(string, int, int)) error {
			_, err := HardHDP(ctx, X, make([]int, n), HDPOptions{Options: learn.Options{K: 1024, Restarts: 2, Workers: 1, Seed: 1},
				LambdaLocal: lambda, LambdaGlobal: lambda, Report: report})
			return err
		}
	}
	for _, tc := range []struct {
		name, stage string
		run         func(context.Context, func(string, int, int)) error
	}{
		{"k-means seeding", "Seeding the K-means centres", lloyd},
		{"k-means assignment", "Assigning rows", lloyd},
		{"hard HDP proposal", "Proposing λ_bottom", hdp(0)},
		{"hard HDP seeding", "Seeding the global clusters", hdp(1e9)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var seen, after atomic.Int32
			err := tc.run(ctx, func(stage string, _, _ int) {
				if !strings.HasPrefix(stage, tc.stage) {
					return
				}
				if ctx.Err() != nil {
					after.Add(1)
				}
				seen.Add(1)
				cancel()
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if seen.Load() == 0 || after.Load() > 0 {
				t.Errorf("%d reports of %q, %d after the cancel: want some, none after", seen.Load(), tc.stage, after.Load())
			}
		})
	}
}

// TestLloydOnDuplicateRowsStopsAtOnce: 2 000 copies of one row and one other, in 64
// clusters. The seeding stops looking once every row sits on a centre, and the run
// stops after the one assignment step that puts every row on a centre, its empty
// clusters re-seeded: every cluster keeps a row, the objective is 0.
func TestLloydOnDuplicateRowsStopsAtOnce(t *testing.T) {
	n, d, k := 2001, 4, 64
	x := make([]float64, n*d)
	for j := range d {
		x[(n-1)*d+j] = 1
	}
	km := NewLloyd(x, n, d, k, 1)
	cent, assign := make([]float64, k*d), make([]int, n)
	if err := km.Seed(context.Background(), rand.New(rand.NewPCG(1, 1)), cent, assign); err != nil {
		t.Fatal(err)
	}
	steps := 0
	if _, err := km.Run(context.Background(), cent, assign, 100, func(int, float64) { steps++ }); err != nil {
		t.Fatal(err)
	}
	rows := make([]int, k)
	for _, c := range assign {
		rows[c]++
	}
	if steps != 1 || sqDistSum(x, cent, assign, n, d) != 0 || slices.Min(rows) == 0 {
		t.Errorf("%d assignment steps, objective %v, rows per cluster %v: want 1 step, 0, every cluster used",
			steps, sqDistSum(x, cent, assign, n, d), rows)
	}
}
