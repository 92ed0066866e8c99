//go:build !gonum_optimize

package segment

import "math"

// minimize minimises f (with gradient grad) from x0 by BFGS with a backtracking line
// search, for at most iters iterations, and returns the best point found and its value.
//
// The paper uses L-BFGS and the plan was gonum/optimize's, but importing
// gonum.org/v1/gonum/optimize pulls golang.org/x/tools into the module graph, which
// go.sum does not hold yet; minimize_lbfgs.go (build tag gonum_optimize) is the drop-in
// that uses it. For the two or three variables of a cluster's location and width, full
// BFGS is what L-BFGS reduces to anyway.
func minimize(f func([]float64) float64, grad func(g, x []float64), x0 []float64, iters int) ([]float64, float64) {
	n := len(x0)
	x := append([]float64(nil), x0...)
	fx := f(x)
	g := make([]float64, n)
	grad(g, x)
	h := make([]float64, n*n) // inverse Hessian estimate
	resetIdentity(h, n)
	p, xn, gn, s, y, hy := make([]float64, n), make([]float64, n), make([]float64, n),
		make([]float64, n), make([]float64, n), make([]float64, n)
	for it := 0; it < iters; it++ {
		if infNorm(g) < 1e-8 {
			break
		}
		// p = −H g, a descent direction unless H has drifted; then fall back to −g.
		var slope float64
		for i := 0; i < n; i++ {
			p[i] = 0
			for j := 0; j < n; j++ {
				p[i] -= h[i*n+j] * g[j]
			}
			slope += p[i] * g[i]
		}
		if !(slope < 0) {
			resetIdentity(h, n)
			slope = 0
			for i := range p {
				p[i] = -g[i]
				slope -= g[i] * g[i]
			}
		}
		// Keep steps within a quarter of the image (or of a log-width unit).
		if pn := infNorm(p); pn > 0.25 {
			for i := range p {
				p[i] *= 0.25 / pn
			}
			slope *= 0.25 / pn
		}
		// Backtracking with the Armijo condition.
		t, fn := 1.0, math.Inf(1)
		for k := 0; k < 40; k++ {
			for i := range xn {
				xn[i] = x[i] + t*p[i]
			}
			fn = f(xn)
			if fn <= fx+1e-4*t*slope {
				break
			}
			t /= 2
		}
		if !(fn <= fx+1e-4*t*slope) {
			break
		}
		grad(gn, xn)
		var sy float64
		for i := 0; i < n; i++ {
			s[i] = xn[i] - x[i]
			y[i] = gn[i] - g[i]
			sy += s[i] * y[i]
		}
		decrease := fx - fn
		copy(x, xn)
		copy(g, gn)
		fx = fn
		if decrease <= 1e-12*(1+math.Abs(fx)) {
			break
		}
		if sy <= 1e-16 {
			continue // curvature condition fails: keep H
		}
		// H ← (I − ρsyᵀ)H(I − ρysᵀ) + ρssᵀ, ρ = 1/yᵀs.
		rho := 1 / sy
		var yhy float64
		for i := 0; i < n; i++ {
			hy[i] = 0
			for j := 0; j < n; j++ {
				hy[i] += h[i*n+j] * y[j]
			}
			yhy += y[i] * hy[i]
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				h[i*n+j] += rho * ((1+rho*yhy)*s[i]*s[j] - hy[i]*s[j] - s[i]*hy[j])
			}
		}
	}
	return x, fx
}

func resetIdentity(h []float64, n int) {
	clear(h)
	for i := 0; i < n; i++ {
		h[i*n+i] = 1
	}
}

func infNorm(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}
