package segment

import (
	"math"
	"testing"
)

func TestStickNormaliserConvex(t *testing.T) {
	// g(u) = ln Γ(e^u + s + k) − ln Γ(e^u + s), s = c(1 − k), must be convex in u for
	// the tangent in stickPrior to be a lower bound: check second differences on a grid.
	g := func(u, k float64, c int) float64 {
		a := math.Exp(u)
		s := float64(c) * (1 - k)
		return lgamma(a+s+k) - lgamma(a+s)
	}
	const h = 1e-3
	for _, k := range []float64{1e-12, 1e-6, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1} {
		for _, c := range []int{1, 2, 5, 19, 100} {
			for u := -7.0; u <= 7; u += 0.25 {
				d2 := g(u+h, k, c) - 2*g(u, k, c) + g(u-h, k, c)
				if d2 < -1e-9 {
					t.Fatalf("k=%v c=%d u=%v: second difference %v < 0", k, c, u, d2)
				}
			}
		}
	}
}

func TestStickPriorDirichletCase(t *testing.T) {
	// With k = 1 the stick is Beta(1, α): P = ln ᾱ and A = 1, the paper's eq. (47).
	for _, ab := range []float64{0.1, 1, 7.5} {
		p, a := stickPrior(1, 3, ab)
		if math.Abs(p-math.Log(ab)) > 1e-12 || math.Abs(a-1) > 1e-9 { // gonum's ψ is good to ~1e-10
			t.Errorf("ᾱ=%v: P=%v A=%v, want %v and 1", ab, p, a, math.Log(ab))
		}
	}
}

func TestGammaKL(t *testing.T) {
	if kl := gammaKL(2.5, 0.7, 2.5, 0.7); math.Abs(kl) > 1e-12 {
		t.Errorf("KL of equal Gammas = %v", kl)
	}
	// Against numerical integration of q ln(q/p).
	a, b, a0, b0 := 3.0, 2.0, 1.0, 1.0
	logpdf := func(x, a, b float64) float64 { return a*math.Log(b) - lgamma(a) + (a-1)*math.Log(x) - b*x }
	var num float64
	const dx = 1e-4
	for x := dx / 2; x < 40; x += dx {
		lq := logpdf(x, a, b)
		num += math.Exp(lq) * (lq - logpdf(x, a0, b0)) * dx
	}
	if kl := gammaKL(a, b, a0, b0); math.Abs(kl-num) > 1e-6 {
		t.Errorf("gammaKL = %v, numerical %v", kl, num)
	}
}
