package pca

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkFitTabletop is the hot path: the 100 real tabletop photos (100 × 230400) to
// 100 components. Loading happens in setup and is not timed.
func BenchmarkFitTabletop(b *testing.B) {
	Y := loadTabletop(b)
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := Fit(Y, Options{Components: DefaultComponents}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFit is the same shape on random data.
func BenchmarkFit(b *testing.B) {
	Y := uniform(100, 230400, 5)
	for b.Loop() {
		if _, _, err := Fit(Y, Options{Components: DefaultComponents}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitRandomized is the randomized path on 5000 × 2000.
func BenchmarkFitRandomized(b *testing.B) {
	Y := lowRank(5000, 2000, 60, 0.01, 5)
	for b.Loop() {
		m, _, err := Fit(Y, Options{Components: DefaultComponents})
		if err != nil {
			b.Fatal(err)
		}
		if m.Method != "randomized" {
			b.Fatalf("method %s", m.Method)
		}
	}
}

// BenchmarkFit32Folder is a folder of 2 000 images of 64×64×3 held as float32, the
// shape scikit-learn's randomized PCA is compared with (make bench-scale): 100
// components.
func BenchmarkFit32Folder(b *testing.B) {
	const n, p = 2000, 64 * 64 * 3
	Y := make([]float32, n*p)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range Y {
		Y[i] = rng.Float32()
	}
	b.SetBytes(int64(len(Y)) * 4)
	for b.Loop() {
		if _, _, err := Fit32(Y, n, p, Options{Components: DefaultComponents}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGram is the Gram matrix of a centred n × 230400 matrix alone: the camera
// folder's 40 pictures, the card deck's 56 and the tabletop's 100.
func BenchmarkGram(b *testing.B) {
	for _, n := range []int{40, 56, 100} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			Y := uniform(n, 230400, 5)
			mean := columnMeans(denseRows(Y), 0.1, 2)
			for b.Loop() {
				gram(context.Background(), denseRows(Y), mean, 0.1, workerCount(0), nil)
			}
		})
	}
}

// BenchmarkInverseDense maps 100 score rows back to 230400 pixel values each.
func BenchmarkInverseDense(b *testing.B) {
	m, X, err := Fit(uniform(100, 230400, 5), Options{Components: DefaultComponents})
	if err != nil {
		b.Fatal(err)
	}
	var out *mat.Dense
	for b.Loop() {
		out = m.InverseDense(X)
	}
	_ = out
}

// BenchmarkInverse maps one score row back to pixels, as the views do per feature.
func BenchmarkInverse(b *testing.B) {
	m, X, err := Fit(uniform(100, 230400, 5), Options{Components: DefaultComponents})
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, m.P)
	for b.Loop() {
		m.Inverse(X.RawRowView(3), dst)
	}
}
