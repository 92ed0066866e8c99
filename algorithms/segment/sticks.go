package segment

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// Priors and numerical guards of the stick-breaking part of the KPYP.
const (
	// q(α)'s prior p(α) = Gamma(η1, η2) (shape, rate), paper eq. (38). With N(C−1)
	// sticks informing α the prior hardly matters; Gamma(1, 1) has mean 1, the usual
	// DP concentration for a handful of clusters.
	alphaShape0 = 1.0
	alphaRate0  = 1.0
	// kernelFloor keeps the first Beta parameter of a stick positive where the RBF
	// kernel underflows far from a cluster's location: Beta(k, ·) with k = 1e-12 already
	// gives the stick a mean of ~1e-12, indistinguishable from 0 in the segmentation.
	kernelFloor = 1e-12
	// retangentTol is how far ⟨ln α⟩ may drift from the tangent point of the stick
	// normalisers' lower bound (see stickPrior) before the tangent is moved.
	retangentTol = 1e-4
)

// lgamma is ln Γ(x) for x > 0.
func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// lnBeta is ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b).
func lnBeta(a, b float64) float64 { return lgamma(a) + lgamma(b) - lgamma(a+b) }

// stickPrior returns, for a stick with prior Beta(k, α + s), s = c(1 − k) (paper eq.
// (24)), the value P and slope A of the tangent at ᾱ = e^{u0} of
//
//	g(u) = ln Γ(e^u + s + k) − ln Γ(e^u + s),
//
// the α-dependent part of the log normaliser of the prior, together with −ln Γ(k):
//
//	P = ln Γ(ᾱ + s + k) − ln Γ(ᾱ + s) − ln Γ(k),  A = g′(u0) = ᾱ[ψ(ᾱ + s + k) − ψ(ᾱ + s)].
//
// ⟨g(ln α)⟩ under a Gamma q(α) has no closed form. g is convex in u = ln α (for
// s ≥ 1 − k, which c ≥ 1 guarantees; TestStickNormaliserConvex checks it), so
// P + A(⟨ln α⟩ − u0) ≤ ⟨g⟩ − ln Γ(k), and the bound stays a bound. With it the optimal
// q(α) is Gamma(η1 + ΣA, η2 − Σ⟨ln(1 − v)⟩): for k = 1 (so s = 0) A = 1 and this is
// exactly the paper's (47)–(48), which count one α per stick as for the Dirichlet
// process's Beta(1, α). For k < 1 the paper's (47) is not the optimum of its own bound
// (42), so following it literally would let the bound decrease.
func stickPrior(k float64, c int, alphaBar float64) (p, a float64) {
	s := float64(c) * (1 - k)
	p = lgamma(alphaBar+s+k) - lgamma(alphaBar+s) - lgamma(k)
	a = alphaBar * (mathext.Digamma(alphaBar+s+k) - mathext.Digamma(alphaBar+s))
	return p, a
}

// gammaKL is KL(Gamma(a, b) ‖ Gamma(a0, b0)) for shape a and rate b.
func gammaKL(a, b, a0, b0 float64) float64 {
	return (a-a0)*mathext.Digamma(a) - lgamma(a) + lgamma(a0) + a0*(math.Log(b)-math.Log(b0)) + a*(b0-b)/b
}
