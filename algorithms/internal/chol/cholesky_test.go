package chol

import (
	"math"
	"testing"
)

// TestCholeskyReconstructs checks LL' = G, the solve against G·Y = B, the inverse
// against G·M = I and the log-determinant against the product of the pivots, with a
// stride wider than k as the IBP sampler uses.
func TestCholeskyReconstructs(t *testing.T) {
	for _, k := range benchKs {
		g, b := gramProblem(k, benchD)
		s := k + 3
		l := make([]float64, k*s)
		for i := 0; i < k; i++ {
			copy(l[i*s:i*s+k], g[i*k:i*k+k])
		}
		if !Factor(l, k, s, 1e-10) {
			t.Fatalf("K=%d: not positive definite", k)
		}
		for i := 0; i < k; i++ {
			for j := 0; j <= i; j++ {
				var v float64
				for p := 0; p <= j; p++ {
					v += l[i*s+p] * l[j*s+p]
				}
				if math.Abs(v-g[i*k+j]) > 1e-9*g[i*k+i] {
					t.Fatalf("K=%d: (LL')_%d%d = %v, want %v", k, i, j, v, g[i*k+j])
				}
			}
		}
		y := append([]float64(nil), b...)
		Solve(l, k, s, y, benchD, benchD)
		for i := 0; i < k; i++ {
			for c := 0; c < benchD; c++ {
				var v float64
				for p := 0; p < k; p++ {
					v += g[i*k+p] * y[p*benchD+c]
				}
				if math.Abs(v-b[i*benchD+c]) > 1e-8 {
					t.Fatalf("K=%d: (GY)_%d%d = %v, want %v", k, i, c, v, b[i*benchD+c])
				}
			}
		}
		inv := make([]float64, k*s)
		Inverse(l, k, s, inv)
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				var v float64
				for p := 0; p < k; p++ {
					v += g[i*k+p] * inv[p*s+j]
				}
				if want := float64(b2i(i == j)); math.Abs(v-want) > 1e-8 {
					t.Fatalf("K=%d: (GM)_%d%d = %v, want %v", k, i, j, v, want)
				}
			}
		}
		var want float64
		for j := 0; j < k; j++ {
			want += math.Log(l[j*s+j] * l[j*s+j])
		}
		if got := LogDet(l, k, s); math.Abs(got-want) > 1e-9*math.Abs(want)+1e-12 {
			t.Errorf("K=%d: LogDet = %v, want %v", k, got, want)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDependentColumns gives a Gram matrix of 0/1 columns where column 2 = column 0 +
// column 1 and column 4 is empty: those two are flagged, and the others factor as
// Cholesky factors their Gram matrix alone.
func TestDependentColumns(t *testing.T) {
	z := [][]float64{{1, 0, 1, 1, 0}, {0, 1, 1, 0, 0}, {1, 0, 1, 0, 0}, {0, 1, 1, 1, 0}, {1, 1, 2, 1, 0}}
	const k = 5
	g := make([]float64, k*k)
	for _, row := range z {
		for a := range k {
			for c := range k {
				g[a*k+c] += row[a] * row[c]
			}
		}
	}
	l := append([]float64(nil), g...)
	if Factor(l, k, k, 1e-10) {
		t.Fatal("Factor accepted a singular Gram matrix")
	}
	l = append(l[:0], g...)
	if dep := DependentColumns(l, k, k, 1e-10); dep != 1<<2|1<<4 {
		t.Fatalf("dependent columns %05b, want 10100", dep)
	}
	keep := []int{0, 1, 3}
	sub := make([]float64, 9)
	for a, i := range keep {
		for c, j := range keep {
			sub[a*3+c] = g[i*k+j]
		}
	}
	if !Factor(sub, 3, 3, 1e-10) {
		t.Fatal("independent columns not positive definite")
	}
	for a, i := range keep {
		for c, j := range keep[:a+1] {
			if l[i*k+j] != sub[a*3+c] {
				t.Errorf("L[%d][%d] = %v, want %v as for the independent columns alone", i, j, l[i*k+j], sub[a*3+c])
			}
		}
	}
}

// plainSolve is Solve written as plain loops, entry by entry: the reference the vector
// kernels of ForwardSolve and BackSolve must match to the bit.
func plainSolve(l []float64, k, s int, b []float64, stride, width int) {
	for i := 0; i < k; i++ {
		bi := b[i*stride : i*stride+width]
		for p := 0; p < i; p++ {
			if f := l[i*s+p]; f != 0 {
				for j := range bi {
					bi[j] -= f * b[p*stride+j]
				}
			}
		}
		inv := 1 / l[i*s+i]
		for j := range bi {
			bi[j] *= inv
		}
	}
	for i := k - 1; i >= 0; i-- {
		bi := b[i*stride : i*stride+width]
		for p := i + 1; p < k; p++ {
			if f := l[p*s+i]; f != 0 {
				for j := range bi {
					bi[j] -= f * b[p*stride+j]
				}
			}
		}
		inv := 1 / l[i*s+i]
		for j := range bi {
			bi[j] *= inv
		}
	}
}

// TestSolveBitsAsPlainLoops checks that Solve, through gonum's vector kernels, gives
// every entry the same bits as plain loops, for widths that exercise the kernels'
// unrolled body and their tails, with a stride wider than the width.
func TestSolveBitsAsPlainLoops(t *testing.T) {
	for _, k := range benchKs {
		for _, width := range []int{1, 3, 16, 100, 101} {
			g, b := gramProblem(k, width)
			if !Factor(g, k, k, 0) {
				t.Fatalf("K=%d: not positive definite", k)
			}
			stride := width + 2
			y1, y2 := make([]float64, k*stride), make([]float64, k*stride)
			for i := 0; i < k; i++ {
				copy(y1[i*stride:], b[i*width:i*width+width])
			}
			copy(y2, y1)
			Solve(g, k, k, y1, stride, width)
			plainSolve(g, k, k, y2, stride, width)
			for i := range y1 {
				if math.Float64bits(y1[i]) != math.Float64bits(y2[i]) {
					t.Fatalf("K=%d width %d: entry %d is %v, plain loops give %v", k, width, i, y1[i], y2[i])
				}
			}
		}
	}
}
