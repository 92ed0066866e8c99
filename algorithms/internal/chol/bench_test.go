package chol

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// benchKs are the feature counts the learners' hot loops see: the A-step of K-features
// and BP-means (K ≈ 2…20) and the IBP sampler's collapsed likelihood (K up to about 40).
var benchKs = []int{2, 5, 10, 20, 40}

// benchD is the width of the right-hand side, the number of PCA scores per image the
// A-step solves for (the samples' default).
const benchD = 16

// gramProblem returns G = Z'Z + I for a random 0/1 Z of n rows and k columns (the
// learners' Gram matrices, nudged positive definite as the IBP's Z'Z + λI is), with the
// full symmetric matrix stored, and a k×d right-hand side.
func gramProblem(k, d int) (g, b []float64) {
	rng := rand.New(rand.NewPCG(uint64(k), 7))
	const n = 200
	z := make([]float64, n*k)
	for i := range z {
		if rng.Float64() < 0.3 {
			z[i] = 1
		}
	}
	g = make([]float64, k*k)
	for i := 0; i < n; i++ {
		for a := 0; a < k; a++ {
			for c := 0; c < k; c++ {
				g[a*k+c] += z[i*k+a] * z[i*k+c]
			}
		}
	}
	for a := 0; a < k; a++ {
		g[a*k+a]++
	}
	b = make([]float64, k*d)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	return g, b
}

// handSolve is the learners' route: Cholesky, then forward and back substitution.
func handSolve(l, y, g, b []float64, k, d int) bool {
	copy(l, g)
	copy(y, b)
	if !Factor(l, k, k, 0) {
		return false
	}
	Solve(l, k, k, y, d, d)
	return true
}

// gonumSolve is the same with lapack64.Potrf and two blas64.Trsm, on the same raw
// slices: nothing is allocated beyond the small headers.
func gonumSolve(l, y, g, b []float64, k, d int) bool {
	copy(l, g)
	copy(y, b)
	t, ok := lapack64.Potrf(blas64.Symmetric{N: k, Stride: k, Data: l, Uplo: blas.Lower})
	if !ok {
		return false
	}
	rhs := blas64.General{Rows: k, Cols: d, Stride: d, Data: y}
	blas64.Trsm(blas.Left, blas.NoTrans, 1, t, rhs)
	blas64.Trsm(blas.Left, blas.Trans, 1, t, rhs)
	return true
}

// BenchmarkCholeskySolve times factor + solve of LL'Y = B, the unit of work of an A-step
// and of a collapsed-likelihood evaluation, by the hand-written kernels and by gonum.
func BenchmarkCholeskySolve(b *testing.B) {
	for _, k := range benchKs {
		g, rhs := gramProblem(k, benchD)
		l, y := make([]float64, k*k), make([]float64, k*benchD)
		for _, route := range []struct {
			name  string
			solve func(l, y, g, b []float64, k, d int) bool
		}{{"hand", handSolve}, {"gonum", gonumSolve}} {
			b.Run(fmt.Sprintf("K=%d/%s", k, route.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if !route.solve(l, y, g, rhs, k, benchD) {
						b.Fatal("not positive definite")
					}
				}
			})
		}
	}
}

// BenchmarkSolveWide times the solve alone at the width of K-features' A-step on PCA
// scores (d = 100 scores, and N = 100 rows for its b = Ax), by Solve and by plain loops.
func BenchmarkSolveWide(b *testing.B) {
	const width = 100
	for _, k := range benchKs {
		g, rhs := gramProblem(k, width)
		if !Factor(g, k, k, 0) {
			b.Fatalf("K=%d: not positive definite", k)
		}
		y := make([]float64, k*width)
		for _, route := range []struct {
			name  string
			solve func(l []float64, k, s int, b []float64, stride, width int)
		}{{"Solve", Solve}, {"plain", plainSolve}} {
			b.Run(fmt.Sprintf("K=%d/%s", k, route.name), func(b *testing.B) {
				for b.Loop() {
					copy(y, rhs)
					route.solve(g, k, k, y, width, width)
				}
			})
		}
	}
}

// BenchmarkCholeskyFactor times the factorisation alone (the IBP's likelihood needs only
// the factor and L⁻¹B; the K-features solve needs both halves).
func BenchmarkCholeskyFactor(b *testing.B) {
	for _, k := range benchKs {
		g, _ := gramProblem(k, benchD)
		l := make([]float64, k*k)
		b.Run(fmt.Sprintf("K=%d/hand", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				copy(l, g)
				Factor(l, k, k, 0)
			}
		})
		b.Run(fmt.Sprintf("K=%d/gonum", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				copy(l, g)
				lapack64.Potrf(blas64.Symmetric{N: k, Stride: k, Data: l, Uplo: blas.Lower})
			}
		})
	}
}

// TestGonumRoundsDifferently records how far the gonum route's answer lies from the
// hand-written one: they agree to rounding, but not to the bit, so adopting gonum would
// change the learners' printed outputs (it was measured, and it did).
func TestGonumRoundsDifferently(t *testing.T) {
	for _, k := range benchKs {
		g, rhs := gramProblem(k, benchD)
		l1, y1 := make([]float64, k*k), make([]float64, k*benchD)
		l2, y2 := make([]float64, k*k), make([]float64, k*benchD)
		if !handSolve(l1, y1, g, rhs, k, benchD) || !gonumSolve(l2, y2, g, rhs, k, benchD) {
			t.Fatalf("K=%d: not positive definite", k)
		}
		differ, worst := 0, 0.0
		for i := range y1 {
			if y1[i] != y2[i] {
				differ++
			}
			worst = max(worst, math.Abs(y1[i]-y2[i])/max(math.Abs(y1[i]), 1e-300))
		}
		if worst > 1e-10 {
			t.Errorf("K=%d: gonum and hand-written solves disagree by %.3g (relative)", k, worst)
		}
		t.Logf("K=%d: %d of %d entries differ in the last bits (worst relative %.2g)", k, differ, len(y1), worst)
	}
}
