package openblas

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// TestBLASMultiplies: the BLAS of this build (OpenBLAS, or gonum's in the pure-Go build)
// computes a product as the textbook loop does, says which kernels it runs, and runs
// one thread, also once its thread server was started again and stopped.
func TestBLASMultiplies(t *testing.T) {
	Threads(2)
	Threads(1)
	const m, n, k = 37, 29, 53
	a, b := make([]float64, m*k), make([]float64, k*n)
	for i := range a {
		a[i] = math.Sin(float64(i))
	}
	for i := range b {
		b[i] = math.Cos(float64(i) / 3)
	}
	c := make([]float64, m*n)
	BLAS.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, c, n)
	for i := range m {
		for j := range n {
			var want float64
			for l := range k {
				want += a[i*k+l] * b[l*n+j]
			}
			if got := c[i*n+j]; math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Fatalf("c[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
	if Core() == "" {
		t.Error("Core names no kernels")
	}
	if th := Threads(0); th != 1 {
		t.Errorf("Threads(0) = %d, want 1", th)
	}
}
