package pca

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestMemoryEstimate: Memory is an honest plan for Fit32. The bytes a fit allocates,
// read from the runtime, are at most the estimate and more than half of it, on each
// path and in identity mode.
func TestMemoryEstimate(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n, p, d    int
		wantMethod string
	}{
		{"gram", 120, 3000, 50, "gram"},
		{"svd", 600, 200, 60, "svd"},
		{"randomized", 1500, 2000, 100, "randomized"},
		{"identity", 300, 400, 0, "identity"},
	} {
		y := make([]float32, tc.n*tc.p)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range y {
			y[i] = rng.Float32()
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m, _, err := Fit32(y, tc.n, tc.p, Options{Components: tc.d, Workers: 2})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if m.Method != tc.wantMethod {
			t.Fatalf("%s: method %s", tc.name, m.Method)
		}
		got := int64(after.TotalAlloc - before.TotalAlloc)
		est := Memory(tc.n, tc.p, tc.d)
		t.Logf("%s: allocated %d bytes, estimated %d", tc.name, got, est)
		if got > est || got < est/2 {
			t.Errorf("%s: allocated %d bytes, estimate %d", tc.name, got, est)
		}
	}
}

// TestFitStopsWhenCanceled: a canceled context stops the fit with its error, on the
// Gram and the randomized path.
func TestFitStopsWhenCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, shape := range [][2]int{{100, 3000}, {1000, 1200}} {
		y := make([]float32, shape[0]*shape[1])
		for i := range y {
			y[i] = float32(i%7) / 7
		}
		_, _, err := Fit32(y, shape[0], shape[1], Options{Components: 50, Context: ctx})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%v: err = %v, want context.Canceled", shape, err)
		}
	}
}
