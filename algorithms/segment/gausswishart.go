package segment

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"
)

// Normal–Wishart prior of every cluster's mean μ and precision Λ (Bishop, PRML §10.2):
// μ | Λ ~ N(m0, (β0Λ)⁻¹), Λ ~ W(W0, ν0) — the "suitable conjugate exponential prior" of
// the paper's §3.3, whose hyperparameters it selects heuristically (§3.4, end). The
// features are centred, so m0 = 0, with β0 = 1 pseudo-observation for the mean.
//
// The covariance part is deliberately not weak: ν0 = D + 2 + ν⁺ with ν⁺ = nwPseudo·N/C
// pseudo-pixels, and W0⁻¹ = (ν0 − D − 1)σ0²·I, so the prior mean of every cluster's
// covariance is E[Λ⁻¹] = σ0²·I whatever ν0. A cluster of n pixels then has a covariance
// near (ν⁺σ0²I + nS)/(ν⁺ + n): it cannot shrink onto the lattice of 8-bit values of a
// dark region or onto one streak of sensor noise, which with a weak prior (ν0 = D + 2)
// the bound rewards with one more cluster each time — the background of a photo then
// breaks into many interleaved segments. σ0 = nwSigma0 is in the features' unit,
// ColourUnit ΔE, the same for every photo (ColourUnit is the geometric mean over the
// photos of their own colour spread).
//
// The values were chosen on the 200 BSDS500 train photos with their human segmentations
// (issue 15; docs/DESIGN.md, "Measurements behind the code"). The width σ0 matters more
// than the strength ν⁺: a broader prior covariance keeps a textured region (grass, sky)
// from breaking into clusters of shades, and at σ0 = 1 real regions merge. On PRI the
// strengths 0.2·N/C and 0.3·N/C are level within the seeds' spread; 0.3 has the lower
// VoI on every seed. One prior width for all the features scores as well as a width of
// their own for L*, for a* and b* or for the texture. ν⁺ in proportion to N keeps the
// prior's weight the same whatever the image's size or Options.Stride; it makes the
// prior depend on the data, which is why it is a heuristic (the paper's §3.4 selects
// these heuristically too), not a belief.
const (
	nwBeta0  = 1.0
	nwSigma0 = 0.5
	nwPseudo = 0.3
)

// nwParams are the parameters of a Normal–Wishart distribution over (μ, Λ).
type nwParams struct {
	beta, nu float64
	m        []float64 // D
	winv     []float64 // D×D, the inverse scale matrix W⁻¹
}

// nwCluster holds a cluster's posterior q(μ_c, Λ_c) and what the E-step needs from it.
type nwCluster struct {
	nwParams
	logDetW   float64
	eLogDetL  float64   // ⟨ln|Λ|⟩, PRML (10.65)
	w         []float64 // D×D, W
	u         []float64 // D×D upper triangular, UᵀU = νW, so ν(y−m)ᵀW(y−m) = ‖U(y−m)‖²
	logLConst float64   // ½⟨ln|Λ|⟩ − (D/2)ln 2π − D/(2β)
}

// newNWPrior returns the prior of D-dimensional clusters with extra pseudo-pixels
// of covariance (ν⁺ above).
func newNWPrior(d int, extra float64) nwParams {
	nu := float64(d) + 2 + extra
	p := nwParams{beta: nwBeta0, nu: nu, m: make([]float64, d), winv: make([]float64, d*d)}
	for i := 0; i < d; i++ {
		p.winv[i*d+i] = (nu - float64(d) - 1) * nwSigma0 * nwSigma0
	}
	return p
}

// logDetW is ln|W| of p (p's W⁻¹ is diagonal: it is a prior from newNWPrior).
func (p nwParams) logDetW() float64 {
	d := len(p.m)
	var s float64
	for i := 0; i < d; i++ {
		s -= math.Log(p.winv[i*d+i])
	}
	return s
}

func newNWCluster(d int) *nwCluster {
	return &nwCluster{
		nwParams: nwParams{m: make([]float64, d), winv: make([]float64, d*d)},
		w:        make([]float64, d*d),
		u:        make([]float64, d*d),
	}
}

// update sets q(μ, Λ) to the posterior given responsibility-weighted statistics
// s0 = Σ_n r_n, s1 = Σ_n r_n y_n and s2 = Σ_n r_n y_n y_nᵀ (paper eq. (55); PRML
// (10.60)–(10.63) written with raw moments):
// β = β0 + s0, ν = ν0 + s0, m = (β0 m0 + s1)/β, W⁻¹ = W0⁻¹ + s2 + β0 m0m0ᵀ − β m mᵀ.
func (q *nwCluster) update(prior nwParams, s0 float64, s1, s2 []float64) error {
	d := len(q.m)
	q.beta = prior.beta + s0
	q.nu = prior.nu + s0
	for i := 0; i < d; i++ {
		q.m[i] = (prior.beta*prior.m[i] + s1[i]) / q.beta
	}
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			v := prior.winv[i*d+j] + s2[i*d+j] + prior.beta*prior.m[i]*prior.m[j] - q.beta*q.m[i]*q.m[j]
			q.winv[i*d+j], q.winv[j*d+i] = v, v
		}
	}
	return q.factor()
}

// factor computes W, ⟨ln|Λ|⟩ and the E-step's Cholesky factor from W⁻¹, once per
// cluster per iteration, so that the per-pixel work is one triangular product.
func (q *nwCluster) factor() error {
	d := len(q.m)
	var chol mat.Cholesky
	if ok := chol.Factorize(mat.NewSymDense(d, append([]float64(nil), q.winv...))); !ok {
		return fmt.Errorf("segment: cluster scale matrix is not positive definite")
	}
	q.logDetW = -chol.LogDet()
	var w mat.SymDense
	if err := chol.InverseTo(&w); err != nil {
		return fmt.Errorf("segment: inverting a cluster scale matrix: %w", err)
	}
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			q.w[i*d+j] = w.At(i, j)
		}
	}
	var cw mat.Cholesky
	if ok := cw.Factorize(&w); !ok {
		return fmt.Errorf("segment: cluster precision matrix is not positive definite")
	}
	var u mat.TriDense
	cw.UTo(&u)
	s := math.Sqrt(q.nu)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			q.u[i*d+j] = s * u.At(i, j)
		}
	}
	q.eLogDetL = eLogDetWishart(q.nu, q.logDetW, d)
	q.logLConst = 0.5*q.eLogDetL - 0.5*float64(d)*math.Log(2*math.Pi) - 0.5*float64(d)/q.beta
	return nil
}

// eLogDetWishart is ⟨ln|Λ|⟩ under W(W, ν): Σ_{i=1..D} ψ((ν+1−i)/2) + D ln 2 + ln|W|.
func eLogDetWishart(nu, logDetW float64, d int) float64 {
	s := float64(d)*math.Ln2 + logDetW
	for i := 1; i <= d; i++ {
		s += mathext.Digamma((nu + 1 - float64(i)) / 2)
	}
	return s
}

// logWishartB is ln B(W, ν), the log normaliser of the Wishart density (PRML (B.79)).
func logWishartB(nu, logDetW float64, d int) float64 {
	fd := float64(d)
	s := -0.5*nu*logDetW - 0.5*nu*fd*math.Ln2 - 0.25*fd*(fd-1)*math.Log(math.Pi)
	for i := 1; i <= d; i++ {
		lg, _ := math.Lgamma((nu + 1 - float64(i)) / 2)
		s -= lg
	}
	return s
}

// kl is KL(q(μ, Λ) ‖ p(μ, Λ)) between two Normal–Wishart distributions, from
// PRML (10.74) and (10.77): ⟨ln q(μ,Λ)⟩ − ⟨ln p(μ,Λ)⟩ under q.
func (q *nwCluster) kl(prior nwParams, priorLogDetW float64) float64 {
	d := len(q.m)
	fd := float64(d)
	// ν (m − m0)ᵀ W (m − m0) and ν Tr(W0⁻¹ W).
	var quad, tr float64
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			quad += (q.m[i] - prior.m[i]) * q.w[i*d+j] * (q.m[j] - prior.m[j])
			tr += prior.winv[i*d+j] * q.w[j*d+i]
		}
	}
	eld := q.eLogDetL
	elnp := 0.5*(fd*math.Log(prior.beta/(2*math.Pi))+eld-fd*prior.beta/q.beta-prior.beta*q.nu*quad) +
		logWishartB(prior.nu, priorLogDetW, d) + 0.5*(prior.nu-fd-1)*eld - 0.5*q.nu*tr
	entropyL := -logWishartB(q.nu, q.logDetW, d) - 0.5*(q.nu-fd-1)*eld + 0.5*q.nu*fd
	elnq := 0.5*eld + 0.5*fd*math.Log(q.beta/(2*math.Pi)) - 0.5*fd - entropyL
	return elnq - elnp
}

// mahalanobis is the squared distance between the posterior means of q and o under the
// average of their expected covariances W⁻¹/ν.
func (q *nwCluster) mahalanobis(o *nwCluster) float64 {
	d := len(q.m)
	s := mat.NewSymDense(d, nil)
	diff := mat.NewVecDense(d, nil)
	for i := 0; i < d; i++ {
		diff.SetVec(i, q.m[i]-o.m[i])
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(q.winv[i*d+j]/q.nu+o.winv[i*d+j]/o.nu))
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(s) {
		return math.Inf(1)
	}
	var x mat.VecDense
	if err := chol.SolveVecTo(&x, diff); err != nil {
		return math.Inf(1)
	}
	return mat.Dot(diff, &x)
}
