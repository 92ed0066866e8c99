package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"featurelab/internal/parallel"
)

// pixelRows is n rows of d dims of a few colour blobs, like the segmenter's pixels.
func pixelRows(n, d int) []float64 {
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, n*d)
	for i := 0; i < n; i++ {
		blob := float64(i % 7)
		for j := 0; j < d; j++ {
			x[i*d+j] = blob*float64(j+1) + rng.NormFloat64()
		}
	}
	return x
}

// TestLloydSameForAnyWorkers runs the kernel on more rows than one chunk with 1, 2 and 8
// workers: the chunks and the order of their sums depend on N alone, so the centres,
// the assignment and the objective trace agree to the bit.
func TestLloydSameForAnyWorkers(t *testing.T) {
	n, d, k := 3*parallel.ChunkRows+123, 5, 12
	x := pixelRows(n, d)
	var first []float64
	var firstAssign []int
	var firstTrace []float64
	for _, workers := range []int{1, 2, 8} {
		km := NewLloyd(x, n, d, k, workers)
		cent, assign := make([]float64, k*d), make([]int, n)
		km.Seed(context.Background(), rand.New(rand.NewPCG(1, 1)), cent, assign)
		var trace []float64
		if _, err := km.Run(context.Background(), cent, assign, 50,
			func(_ int, obj float64) { trace = append(trace, obj) }); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first, firstAssign, firstTrace = cent, assign, trace
			continue
		}
		if !slices.Equal(cent, first) || !slices.Equal(assign, firstAssign) || !slices.Equal(trace, firstTrace) {
			t.Errorf("workers=%d differs from workers=1", workers)
		}
	}
}

// TestLloydReseedsEmptyClusters starts two of three centres far from every row: the
// first assignment leaves them empty, and the update gives each the farthest row of a
// cluster that keeps another, so every cluster ends with rows.
func TestLloydReseedsEmptyClusters(t *testing.T) {
	x := []float64{0, 1, 2, 10, 11, 12}
	km := NewLloyd(x, 6, 1, 3, 1)
	cent, assign := []float64{5, 1000, 2000}, []int{-1, -1, -1, -1, -1, -1}
	if _, err := km.Run(context.Background(), cent, assign, 100, nil); err != nil {
		t.Fatal(err)
	}
	count := make([]int, 3)
	for _, c := range assign {
		count[c]++
	}
	if slices.Contains(count, 0) {
		t.Errorf("assignment %v leaves a cluster empty", assign)
	}
}

// TestDPMeansRowsCapsClusters gives DPMeansRows more well-separated rows than maxK:
// the first pass starts from one cluster at the mean, so 12 rows open 13.
func TestDPMeansRowsCapsClusters(t *testing.T) {
	x := make([]float64, 12)
	for i := range x {
		x[i] = float64(10 * i)
	}
	assign, err := DPMeansRows(context.Background(), x, 12, 1, 1, 50, 13, nil)
	if err != nil {
		t.Fatalf("12 rows, 13 clusters: %v", err)
	}
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}; !slices.Equal(assign, want) {
		t.Errorf("assignment %v, want %v", assign, want)
	}
	if _, err := DPMeansRows(context.Background(), x, 12, 1, 1, 50, 11, nil); !errors.Is(err, ErrTooManyClusters) {
		t.Errorf("12 rows, 11 clusters: err = %v, want ErrTooManyClusters", err)
	}
}
