package pca

import (
	"context"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestProductsMatchNaive checks the blocked products with the centred data against
// plain matrix products, on shapes that span several row chunks and column blocks, a
// strided input, and different numbers of workers, which must give the same bits.
func TestProductsMatchNaive(t *testing.T) {
	tests := []struct {
		name    string
		n, p, l int
	}{
		{"small", 7, 20, 3},
		{"rows over packRows", packRows + 90, 300, 5},
		{"columns over a block", 30, 3*blockCols(30) + 17, 4},
	}
	for _, tt := range tests {
		big := uniform(tt.n+2, tt.p+3, 61)
		Y := big.Slice(1, tt.n+1, 2, tt.p+2).(*mat.Dense)
		const inv = 0.3
		mean := columnMeans(denseRows(Y), inv, 2)
		yc := centred(denseRows(Y), mean, inv)

		W := uniform(tt.n, tt.l, 62) // for Ycᵀ W
		var wantT mat.Dense
		wantT.Mul(yc.T(), W)
		wt := mat.DenseCopyOf(W.T()).RawMatrix().Data
		var firstT *mat.Dense
		var firstG []float64
		for _, workers := range []int{1, 3} {
			gotT := mat.NewDense(tt.p, tt.l+2, nil) // two spare columns must stay zero
			projectColumns(gotT, denseRows(Y), mean, inv, wt, tt.l, workers, nil)
			if d := maxAbsDiff(gotT.Slice(0, tt.p, 0, tt.l), &wantT); d > 1e-12 {
				t.Fatalf("%s, %d workers: Ycᵀ W off by %v", tt.name, workers, d)
			}
			if d := maxAbsDiff(gotT.Slice(0, tt.p, tt.l, tt.l+2), mat.NewDense(tt.p, 2, nil)); d != 0 {
				t.Fatalf("%s, %d workers: columns beyond r were written", tt.name, workers)
			}

			g, _ := gram(context.Background(), denseRows(Y), mean, inv, workers, nil)
			if firstT == nil {
				firstT, firstG = gotT, g
			} else if !mat.Equal(gotT, firstT) || !slices.Equal(g, firstG) {
				t.Fatalf("%s: %d workers give other bits than 1", tt.name, workers)
			}
			var wantG mat.Dense
			wantG.Mul(yc, yc.T())
			for i := range tt.n {
				for j := i; j < tt.n; j++ {
					if d := g[i*tt.n+j] - wantG.At(i, j); d > 1e-12 || d < -1e-12 {
						t.Fatalf("%s, %d workers: G[%d,%d] = %v, want %v", tt.name, workers, i, j, g[i*tt.n+j], wantG.At(i, j))
					}
				}
			}
		}
	}
}

// TestFitReportsProgress checks that the Gram path reports every block of both passes
// over the data, in order, ending at done = total, whatever the number of workers.
func TestFitReportsProgress(t *testing.T) {
	Y := uniform(40, 20000, 3)
	for _, workers := range []int{1, 3} {
		var mu sync.Mutex
		calls, maxDone, total := 0, 0, -1
		_, _, err := Fit(Y, Options{Components: 10, Workers: workers, Progress: func(done, tot int) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if done != maxDone+1 {
				t.Errorf("done %d after %d: reports must count up one at a time", done, maxDone)
			}
			maxDone = max(maxDone, done)
			if total >= 0 && tot != total {
				t.Errorf("total changed from %d to %d", total, tot)
			}
			total = tot
		}})
		if err != nil {
			t.Fatal(err)
		}
		if total < 2 || calls != total || maxDone != total {
			t.Errorf("workers %d: %d reports, last done %d, total %d; want total ≥ 2 reports ending at total", workers, calls, maxDone, total)
		}
	}
}
