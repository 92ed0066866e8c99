package algorithms

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// errSingular reports a Z whose Gram matrix Z'Z cannot be inverted: a feature owned by no
// row, or two features owned by the same rows. Learners merge or drop such features first.
var errSingular = errors.New("Z'Z is singular")

// aStepPivotTol is the relative size below which a Cholesky pivot of Z'Z counts as zero.
// For 0/1 matrices Z'Z has integer entries: a dependent column leaves a pivot at rounding
// level (~1e-16·N) and an independent one a pivot of order 1/N or more.
const aStepPivotTol = 1e-10

// aStepWork is the reusable scratch of aStep for one K; it keeps the A-step of a hot
// restart loop free of allocations.
type aStepWork struct {
	k, d int
	gram []float64 // K×K: Z'Z, then its Cholesky factor L (lower triangle)
	ztx  []float64 // K×D: Z'X
}

func newAStepWork(k, d int) *aStepWork {
	return &aStepWork{k: k, d: d, gram: make([]float64, k*k), ztx: make([]float64, k*d)}
}

// aStep sets A = (Z'Z)⁻¹Z'X, the least-squares features for a fixed allocation (MAD-Bayes
// Alg. 1, A-step), by a Cholesky solve. Z is N×K with 0/1 entries, X is N×D, A is K×D.
// It returns errSingular when a pivot of Z'Z vanishes (relative to its diagonal entry).
// Z'X is accumulated row by row, skipping zero entries of Z, so it costs N·D per ownership.
func aStep(A, Z, X *mat.Dense, ws *aStepWork) error {
	n, k := Z.Dims()
	_, d := X.Dims()
	if ws == nil || ws.k != k || ws.d != d {
		ws = newAStepWork(k, d)
	}
	g, ztx := ws.gram, ws.ztx
	clear(g)
	clear(ztx)
	for i := 0; i < n; i++ {
		z := Z.RawRowView(i)
		x := X.RawRowView(i)
		for j, zj := range z {
			if zj == 0 {
				continue
			}
			floats.AddScaled(ztx[j*d:j*d+d], zj, x)
			for t := j; t < k; t++ {
				g[j*k+t] += zj * z[t] // upper triangle
			}
		}
	}
	if !choleskyLower(g, k) {
		return errSingular
	}
	a := A.RawMatrix()
	for i := 0; i < k; i++ {
		copy(a.Data[i*a.Stride:i*a.Stride+d], ztx[i*d:i*d+d])
	}
	cholSolveRowsStrided(g, k, a.Data, a.Stride, d)
	return nil
}

// cholSolveRows sets dst = (LLᵀ)⁻¹src for the K×width row-major matrices dst and src,
// with L the lower triangle of l as left by choleskyLower: forward substitution from src
// into dst, then back substitution in place. Each step is a whole-row axpy.
func cholSolveRows(l []float64, k int, dst, src []float64, width int) {
	copy(dst[:k*width], src[:k*width])
	cholSolveRowsStrided(l, k, dst, width, width)
}

// cholSolveRowsStrided solves LLᵀY = B in place, B held in the first width columns of the
// K rows of dst, which are stride apart.
func cholSolveRowsStrided(l []float64, k int, dst []float64, stride, width int) {
	row := func(i int) []float64 { return dst[i*stride : i*stride+width] }
	for i := 0; i < k; i++ {
		r := row(i)
		for j := 0; j < i; j++ {
			floats.AddScaled(r, -l[i*k+j], row(j))
		}
		floats.Scale(1/l[i*k+i], r)
	}
	for i := k - 1; i >= 0; i-- {
		r := row(i)
		for j := i + 1; j < k; j++ {
			floats.AddScaled(r, -l[j*k+i], row(j))
		}
		floats.Scale(1/l[i*k+i], r)
	}
}

// choleskyLower factorises the symmetric K×K matrix whose upper triangle is stored in g
// (row-major) as LLᵀ, writing L into the lower triangle and diagonal of g. It reports
// false when a pivot is not positive relative to its diagonal entry (aStepPivotTol).
func choleskyLower(g []float64, k int) bool {
	for j := 0; j < k; j++ {
		for i := 0; i < j; i++ {
			s := g[i*k+j] // upper triangle: the original (i, j) entry
			for t := 0; t < i; t++ {
				s -= g[j*k+t] * g[i*k+t]
			}
			g[j*k+i] = s / g[i*k+i]
		}
		diag := g[j*k+j]
		s := diag
		for t := 0; t < j; t++ {
			s -= g[j*k+t] * g[j*k+t]
		}
		if !(s > aStepPivotTol*diag) || diag <= 0 {
			return false
		}
		g[j*k+j] = math.Sqrt(s)
	}
	return true
}

// residualSS returns ‖X − ZA‖²_F, the K-features objective.
func residualSS(X, Z, A *mat.Dense) float64 {
	n, d := X.Dims()
	_, k := Z.Dims()
	var total float64
	row := make([]float64, d)
	for i := 0; i < n; i++ {
		copy(row, X.RawRowView(i))
		z := Z.RawRowView(i)
		for j := 0; j < k; j++ {
			if z[j] != 0 {
				a := A.RawRowView(j)
				for c := range row {
					row[c] -= a[c]
				}
			}
		}
		for _, v := range row {
			total += v * v
		}
	}
	return total
}
