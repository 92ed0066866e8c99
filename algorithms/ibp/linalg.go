package ibp

import "math"

// Small dense kernels for the IBP sampler on flat row-major slices with an explicit
// stride. K is small (tens) and changes every row, so these avoid mat.Dense and its
// allocations in the sampler's hot loops.

// cholesky overwrites the leading k×k lower triangle of a (stride s) with the
// Cholesky factor L of the symmetric matrix held there (a = LL') and returns log|a|. It
// reports false when a is not numerically positive definite. The upper triangle is
// neither read nor written.
func cholesky(a []float64, k, s int) (logdet float64, ok bool) {
	for j := 0; j < k; j++ {
		rj := a[j*s : j*s+j+1]
		d := rj[j]
		for p := 0; p < j; p++ {
			d -= rj[p] * rj[p]
		}
		if !(d > 0) || math.IsInf(d, 0) {
			return 0, false
		}
		d = math.Sqrt(d)
		rj[j] = d
		logdet += 2 * math.Log(d)
		for i := j + 1; i < k; i++ {
			ri := a[i*s : i*s+j+1]
			v := ri[j]
			for p := 0; p < j; p++ {
				v -= ri[p] * rj[p]
			}
			ri[j] = v / d
		}
	}
	return logdet, true
}

// forwardSolve overwrites the k×d matrix b (stride d) with L⁻¹b, where L is the
// lower-triangular factor in l (stride s).
func forwardSolve(l []float64, k, s int, b []float64, d int) {
	for i := 0; i < k; i++ {
		bi := b[i*d : i*d+d]
		li := l[i*s : i*s+i+1]
		for p := 0; p < i; p++ {
			f := li[p]
			if f == 0 {
				continue
			}
			bp := b[p*d : p*d+d]
			for j := range bi {
				bi[j] -= f * bp[j]
			}
		}
		inv := 1 / li[i]
		for j := range bi {
			bi[j] *= inv
		}
	}
}

// backSolve overwrites the k×d matrix b (stride d) with L⁻ᵀb.
func backSolve(l []float64, k, s int, b []float64, d int) {
	for i := k - 1; i >= 0; i-- {
		bi := b[i*d : i*d+d]
		for p := i + 1; p < k; p++ {
			f := l[p*s+i] // (L')[i][p] = L[p][i]
			if f == 0 {
				continue
			}
			bp := b[p*d : p*d+d]
			for j := range bi {
				bi[j] -= f * bp[j]
			}
		}
		inv := 1 / l[i*s+i]
		for j := range bi {
			bi[j] *= inv
		}
	}
}

// cholInverse sets the k×k matrix inv (stride s) to (LL')⁻¹ = L⁻ᵀL⁻¹, full and
// symmetric. It solves column by column with the identity as right-hand side, using
// inv itself as the work space: O(k³).
func cholInverse(l []float64, k, s int, inv []float64) {
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
