package cluster

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"featurelab/algorithms/internal/realdata"
	"featurelab/algorithms/learn"
)

// BenchmarkKMeansK5Restarts1000 is K-means with k = 5 and 1000 restarts on the tabletop
// PCA-100 scores (100 × 99), on all cores.
func BenchmarkKMeansK5Restarts1000(b *testing.B) {
	realdata.BenchTabletop(b, KMeans, learn.Options{K: 5, Restarts: 1000, Seed: 1})
}

// BenchmarkKMeansRestart is one restart of K-means (k = 5) on one worker's scratch; it
// must not allocate.
func BenchmarkKMeansRestart(b *testing.B) {
	X := realdata.Tabletop(b)
	n, d := X.Dims()
	w := newKMWork(learn.FlatRows(X), n, d, 5, 1000)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := w.restart(ctx, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDPMeans is DP-means with λ² from the farthest-first heuristic for 5 clusters
// and 100 restarts on the tabletop scores.
func BenchmarkDPMeans(b *testing.B) {
	realdata.BenchTabletop(b, DPMeans, learn.Options{K: 5, Restarts: 100, Seed: 1})
}

// BenchmarkDPMeansRestart is one restart of DP-means on one worker's scratch.
func BenchmarkDPMeansRestart(b *testing.B) {
	for _, div := range []string{"euclidean", "idiv"} {
		b.Run(div, func(b *testing.B) {
			X := realdata.Tabletop(b)
			if div != "euclidean" {
				// I-divergence needs non-negative data: shift the scores.
				n, d := X.Dims()
				for i := 0; i < n; i++ {
					for j := 0; j < d; j++ {
						X.Set(i, j, X.At(i, j)+10)
					}
				}
			}
			kind, _ := parseDivergence(div)
			data, err := newBregData(X, kind)
			if err != nil {
				b.Fatal(err)
			}
			mean, lmean := data.mean()
			w := &dpWork{data: data, lambda2: data.farthestFirst(5, mean, lmean), maxIter: 1000,
				mean: mean, lmean: lmean, states: bestOf[dpState]{cur: &dpState{}, best: &dpState{}}, perm: make([]int, data.n)}
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(1, 2))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := w.restart(ctx, rng); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHardHDP is the hard HDP on 20 groups of 4 colours × 50 rows from a palette of
// six (4 000 rows in 3 dimensions, the size of a small co-segmentation), 10 restarts.
func BenchmarkHardHDP(b *testing.B) {
	X, group, _, _ := paletteGroups(1, testPalette, 20, 50, 0.5)
	b.ReportAllocs()
	for b.Loop() {
		res, err := HardHDP(context.Background(), X, group, HDPOptions{Options: learn.Options{Restarts: 10, Seed: 1}, LambdaLocal: 5, LambdaGlobal: 5})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.K), "K")
	}
}

// BenchmarkLloydPixels is the K-means that starts the segmenter's KPYP: 29 clusters of
// 154 401 rows (a 481×321 photo) of 7 features, k-means++ and 10 assignment steps, on
// one worker and on all cores.
func BenchmarkLloydPixels(b *testing.B) {
	n, d, k := 481*321, 7, 29
	x := pixelRows(n, d)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			km := NewLloyd(x, n, d, k, workers)
			cent, assign := make([]float64, k*d), make([]int, n)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				km.Seed(context.Background(), rand.New(rand.NewPCG(1, 2)), cent, assign)
				if _, err := km.Run(ctx, cent, assign, 10, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
