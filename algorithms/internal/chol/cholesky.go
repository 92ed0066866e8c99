package chol

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// Factor overwrites the leading k×k lower triangle of a (rows s apart) with the
// Cholesky factor L of the symmetric matrix held there (a = LL'). The upper triangle is
// neither read nor written. It reports false, leaving a partly overwritten, when a pivot
// is not above tol times its diagonal entry, or is not finite: tol = 0 asks only for
// positive definiteness, a small tol > 0 also rejects a column that is numerically a
// combination of the ones before it (a Gram matrix of 0/1 columns has integer entries,
// so such a pivot is at rounding level while an independent one is of order 1/N).
func Factor(a []float64, k, s int, tol float64) bool {
	_, ok := factor(a, k, s, tol, false)
	return ok
}

// DependentColumns factors a as Factor does, but a column whose pivot fails is skipped
// instead of stopping the factorisation: its bit is set in the result, its column of L is
// zero and its diagonal 1. The columns left form the factor of the Gram matrix of the
// independent columns, found with Cholesky's arithmetic, so a column is dependent here
// exactly when Factor would stop at it. k must be at most 64.
func DependentColumns(a []float64, k, s int, tol float64) uint64 {
	dep, _ := factor(a, k, s, tol, true)
	return dep
}

// factor is Factor (skip false) and DependentColumns (skip true) in one loop, so the
// two cannot drift apart: row j of L is found from the rows above it, L_ji =
// (a_ji − Σ_{t<i} L_jt L_it) / L_ii and L_jj = √(a_jj − Σ_{t<j} L_jt²), every sum in
// index order.
func factor(a []float64, k, s int, tol float64, skip bool) (dep uint64, ok bool) {
	for j := 0; j < k; j++ {
		rj := a[j*s : j*s+j+1]
		for i := 0; i < j; i++ {
			if dep&(1<<i) != 0 {
				rj[i] = 0
				continue
			}
			ri := a[i*s : i*s+i+1]
			v := rj[i]
			for t := 0; t < i; t++ {
				v -= rj[t] * ri[t]
			}
			rj[i] = v / ri[i]
		}
		diag := rj[j]
		v := diag
		for t := 0; t < j; t++ {
			v -= rj[t] * rj[t]
		}
		if !(v > tol*diag) || diag <= 0 || math.IsInf(v, 0) {
			if !skip {
				return dep, false
			}
			dep |= 1 << j
			rj[j] = 1
			continue
		}
		rj[j] = math.Sqrt(v)
	}
	return dep, true
}

// LogDet returns log|LL'| = 2 Σ log L_jj for the k×k factor in l (rows s apart), the
// terms added in index order.
func LogDet(l []float64, k, s int) float64 {
	var logdet float64
	for j := 0; j < k; j++ {
		logdet += 2 * math.Log(l[j*s+j])
	}
	return logdet
}

// ForwardSolve overwrites the first width columns of the k rows of b (rows stride apart)
// with L⁻¹b, L the lower-triangular factor in l (rows s apart). Each step is a whole-row
// axpy; a zero entry of L, common in the Gram matrices of sparse 0/1 features, is skipped.
// The rows go through gonum's vector kernels (floats.AddScaled, floats.Scale), which
// round each entry as b_j − f·b_pj and b_j·(1/L_ii) do: the same bits as a plain loop.
func ForwardSolve(l []float64, k, s int, b []float64, stride, width int) {
	for i := 0; i < k; i++ {
		bi := b[i*stride : i*stride+width]
		li := l[i*s : i*s+i+1]
		for p := 0; p < i; p++ {
			if f := li[p]; f != 0 {
				floats.AddScaled(bi, -f, b[p*stride:p*stride+width])
			}
		}
		floats.Scale(1/li[i], bi)
	}
}

// BackSolve overwrites the first width columns of the k rows of b (rows stride apart)
// with L⁻ᵀb, L as for ForwardSolve.
func BackSolve(l []float64, k, s int, b []float64, stride, width int) {
	for i := k - 1; i >= 0; i-- {
		bi := b[i*stride : i*stride+width]
		for p := i + 1; p < k; p++ {
			if f := l[p*s+i]; f != 0 { // (L')[i][p] = L[p][i]
				floats.AddScaled(bi, -f, b[p*stride:p*stride+width])
			}
		}
		floats.Scale(1/l[i*s+i], bi)
	}
}

// Solve overwrites b with (LL')⁻¹b: ForwardSolve, then BackSolve.
func Solve(l []float64, k, s int, b []float64, stride, width int) {
	ForwardSolve(l, k, s, b, stride, width)
	BackSolve(l, k, s, b, stride, width)
}

// Inverse sets the k×k matrix inv (rows s apart) to (LL')⁻¹ = L⁻ᵀL⁻¹, full and
// symmetric. It solves column by column with the identity as right-hand side, using inv
// itself as the work space: O(k³).
func Inverse(l []float64, k, s int, inv []float64) {
	for i := 0; i < k; i++ {
		row := inv[i*s : i*s+k]
		for j := range row {
			row[j] = 0
		}
		row[i] = 1
	}
	// inv now holds I; treat each row as a right-hand side column (I is symmetric, and so
	// is the answer, so rows and columns are interchangeable).
	for c := 0; c < k; c++ {
		// Solve L y = e_c, then L' x = y, on the vector stored in row c of inv.
		x := inv[c*s : c*s+k]
		for i := c; i < k; i++ { // y_i = 0 for i < c
			v := x[i]
			li := l[i*s : i*s+i]
			for p := c; p < i; p++ {
				v -= li[p] * x[p]
			}
			x[i] = v / l[i*s+i]
		}
		for i := k - 1; i >= 0; i-- {
			v := x[i]
			for p := i + 1; p < k; p++ {
				v -= l[p*s+i] * x[p]
			}
			x[i] = v / l[i*s+i]
		}
	}
	// Symmetrise against rounding so rank-one updates start from an exactly symmetric M.
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			v := 0.5 * (inv[i*s+j] + inv[j*s+i])
			inv[i*s+j], inv[j*s+i] = v, v
		}
	}
}
