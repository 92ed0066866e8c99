package segment

import (
	"math"

	"gonum.org/v1/gonum/optimize"
)

// minimize minimises f (with gradient grad) from x0 by L-BFGS from gonum/optimize, for
// at most iters major iterations, and returns the best point found and its value
// (paper §3.5 uses L-BFGS for the cluster locations).
func minimize(f func([]float64) float64, grad func(g, x []float64), x0 []float64, iters int) ([]float64, float64) {
	res, err := optimize.Minimize(optimize.Problem{Func: f, Grad: grad}, x0, &optimize.Settings{
		MajorIterations:   iters,
		GradientThreshold: 1e-8,
	}, &optimize.LBFGS{})
	if res == nil || (err != nil && math.IsNaN(res.F)) {
		return x0, f(x0)
	}
	return res.X, res.F
}
