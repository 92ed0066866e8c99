package ibp

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// config holds the IBP sampler's fixed model constants. Gibbs always uses
// defaultConfig; tests change them (lighter-tailed priors for the Geweke test) and
// inject known bugs to check that the tests would notice.
type config struct {
	// α ~ Gamma(alphaShape, rate alphaRate) (Gamma(1, 1), as in Griffiths & Ghahramani).
	alphaShape, alphaRate float64
	// σ_X² ~ InvGamma(sxShape, scale sxScale), σ_A² ~ InvGamma(saShape, scale saScale).
	sxShape, sxScale float64
	saShape, saScale float64
	// maxNew truncates the posterior of K_new, the new features of a row (Liu & Li §3.2).
	maxNew int
	// mhSteps is the number of Metropolis steps on each of log σ_X and log σ_A per sweep.
	mhSteps int
	// block is the largest block of shared features of a row drawn jointly (1: one at a
	// time, as in Liu & Li Alg. 1; at most maxBlock).
	block int
	// colMoves column moves are proposed per sweep (0: none). The number must not depend
	// on the state (say on K): a state-dependent number of π-invariant steps is not
	// π-invariant, and the Geweke test sees the bias.
	colMoves int
	// step0 is the initial random-walk standard deviation of the log σ proposals.
	step0 float64
	// tie, when > 0, is a λ² that ties α to σ_X: α = exp(−λ²/2σ_X²) (setAlpha).
	tie float64
	// keepForm leaves out the pair moves, which re-express two features by their sum or
	// difference without changing the fit; the moves that merge or split twin features
	// and add or drop an all-ones one stay.
	keepForm bool
	// bug injects a deliberate error (tests only).
	bug bug
	// keep, when set, is handed every chain's result (tests only: the mixing benchmark
	// reads all chains' traces).
	keep func(*chainResult)
}

// bug names a deliberate error the Geweke test must catch.
type bug int

const (
	noBug           bug = iota
	bugNoJacobian       // Metropolis on log σ without the Jacobian 2σ² of σ² → log σ
	bugGammaScale       // α | Z drawn with the rate 1 + H_N passed as a scale
	bugPoissonAlpha     // K_new with a Poisson(α) prior instead of Poisson(α/N)
	bugTiedNoZPrior     // tied α: σ_X's Metropolis step without the prior of Z
)

// Default hyperpriors. σ_X² and σ_A² get InvGamma(1, 1): shape 1 is the weakest proper
// choice with a mode (at σ² = 1/2), and on data in the reference PCA scaling (σ_X ≈ 0.1–1)
// the N·D observations outweigh it; it only keeps σ away from 0 and ∞.
const (
	alphaShape = 1.0
	alphaRate  = 1.0
	sigmaShape = 1.0
	sigmaScale = 1.0
	maxNew     = 4
	mhsteps    = 5
	step0      = 0.1
	block      = 3
	colMoves   = 20
	// targetAccept is the acceptance rate the burn-in adaptation steers toward.
	targetAccept = 0.35
	// lambdaMin and lambdaMax bound λ = σ_X²/σ_A²: proposals outside are rejected,
	// which keeps Z'Z + λI far from singular in floating point (a truncation of the
	// prior that no real posterior comes near).
	lambdaMin = 1e-10
	lambdaMax = 1e10
)

func defaultConfig() *config {
	return &config{
		alphaShape: alphaShape, alphaRate: alphaRate,
		sxShape: sigmaShape, sxScale: sigmaScale,
		saShape: sigmaShape, saScale: sigmaScale,
		maxNew: maxNew, mhSteps: mhsteps, step0: step0, block: block,
		colMoves: colMoves,
	}
}

// sampleAlpha draws α | Z ~ Gamma(a + K, rate b + H_N) (Liu & Li eq. 10). distuv.Gamma's
// Beta is a rate.
func (c *chain) sampleAlpha() {
	rate := c.cfg.alphaRate + c.hN
	if c.cfg.bug == bugGammaScale {
		rate = 1 / rate
	}
	if c.cfg.tie > 0 {
		c.setAlpha(0)
		return
	}
	c.setAlpha(distuv.Gamma{Alpha: c.cfg.alphaShape + float64(c.k), Beta: rate, Src: c.rng}.Rand())
}

// setAlpha sets α, or when α is tied to σ_X (cfg.tie = λ² > 0) sets it to exp(−λ²/2σ_X²),
// the IBP parameter whose small-variance limit is BP-means at λ² (MAD-Bayes §3.1).
func (c *chain) setAlpha(a float64) {
	if c.cfg.tie > 0 {
		c.logAlpha = c.tiedLogAlpha(c.sx)
		c.alpha = math.Exp(c.logAlpha)
		return
	}
	c.alpha, c.logAlpha = a, math.Log(a)
}

// tiedLogAlpha is log α = −λ²/(2σ_X²) for σ_X = sx.
func (c *chain) tiedLogAlpha(sx float64) float64 { return -c.cfg.tie / (2 * sx * sx) }

// zPriorAlphaTerm is the part of log P([Z] | α) that depends on α: K log α − α H_N.
// With no features it is −α H_N alone: 0 · log α would be NaN for α = 0.
func (c *chain) zPriorAlphaTerm(logAlpha float64) float64 {
	t := -math.Exp(logAlpha) * c.hN
	if c.k > 0 {
		t += float64(c.k) * logAlpha
	}
	return t
}

// logInvGammaLogSigma is the log density of u = log σ when σ² ~ InvGamma(a, scale b),
// up to a constant: p_u(u) = p_{σ²}(e^{2u})·2e^{2u} ∝ e^{−2au − b e^{−2u}}. Without the
// Jacobian factor 2σ² the exponent would be −2(a+1)u: the prior of shape a+1.
func logInvGammaLogSigma(u, a, b float64, noJacobian bool) float64 {
	if noJacobian {
		a++
	}
	return -2*a*u - b*math.Exp(-2*u)
}

// logInvGamma is the log density of v ~ InvGamma(a, scale b).
func logInvGamma(v, a, b float64) float64 {
	lg, _ := math.Lgamma(a)
	return a*math.Log(b) - lg - (a+1)*math.Log(v) - b/v
}

// logGamma is the log density of x ~ Gamma(a, rate b).
func logGamma(x, a, b float64) float64 {
	lg, _ := math.Lgamma(a)
	return a*math.Log(b) - lg + (a-1)*math.Log(x) - b*x
}

// sampleSigmas runs the Metropolis steps on log σ_X, then log σ_A, with the collapsed
// likelihood (Liu & Li eq. 11; A stays integrated out for both). c.G, c.B must hold Z'Z
// and Z'X and c.logLik the log-likelihood at the current σ's. During burn-in (adapt) each
// step moves the log step size toward targetAccept acceptance (Robbins–Monro with gain
// 1/√(t+1)); afterwards the step is frozen and acceptances are counted.
func (c *chain) sampleSigmas(t int, adapt bool) {
	noJac := c.cfg.bug == bugNoJacobian
	for range c.cfg.mhSteps {
		// σ_X
		u := math.Log(c.sx)
		u1 := u + c.stepX*c.rng.NormFloat64()
		sx1 := math.Exp(u1)
		acc := 0.0
		if ll1, ok := c.logLikAt(sx1, c.sa); ok {
			logr := ll1 - c.logLik +
				logInvGammaLogSigma(u1, c.cfg.sxShape, c.cfg.sxScale, noJac) -
				logInvGammaLogSigma(u, c.cfg.sxShape, c.cfg.sxScale, noJac)
			if c.cfg.tie > 0 && c.cfg.bug != bugTiedNoZPrior {
				logr += c.zPriorAlphaTerm(c.tiedLogAlpha(sx1)) - c.zPriorAlphaTerm(c.logAlpha)
			}
			if logr >= 0 || math.Log(c.rng.Float64()) < logr {
				c.sx, c.logLik, acc = sx1, ll1, 1
				c.setAlpha(c.alpha)
			}
		}
		c.stepX = c.adaptStep(c.stepX, acc, t, adapt, &c.accX, &c.nX)

		// σ_A
		u = math.Log(c.sa)
		u1 = u + c.stepA*c.rng.NormFloat64()
		sa1 := math.Exp(u1)
		acc = 0
		if ll1, ok := c.logLikAt(c.sx, sa1); ok {
			logr := ll1 - c.logLik +
				logInvGammaLogSigma(u1, c.cfg.saShape, c.cfg.saScale, noJac) -
				logInvGammaLogSigma(u, c.cfg.saShape, c.cfg.saScale, noJac)
			if logr >= 0 || math.Log(c.rng.Float64()) < logr {
				c.sa, c.logLik, acc = sa1, ll1, 1
			}
		}
		c.stepA = c.adaptStep(c.stepA, acc, t, adapt, &c.accA, &c.nA)
	}
}

func (c *chain) adaptStep(step, acc float64, t int, adapt bool, nacc, n *int) float64 {
	if !adapt {
		*n++
		if acc > 0 {
			*nacc++
		}
		return step
	}
	step *= math.Exp((acc - targetAccept) / math.Sqrt(float64(t+1)))
	return math.Min(math.Max(step, 1e-4), 5)
}

// logPriorZ is log P([Z] | α), the IBP probability of Z's left-ordered equivalence class
// (Griffiths & Ghahramani 2005, eq. 14; the exchangeable form of Liu & Li eq. 1, with
// ∏_h K_h! over groups of identical columns in place of the customer-order ∏_i K₁⁽ⁱ⁾!):
//
//	α^K / ∏_h K_h! · exp(−α H_N) · ∏_k (N − m_k)!(m_k − 1)!/N!.
func (c *chain) logPriorZ() float64 {
	n, k := c.n, c.k
	lp := c.zPriorAlphaTerm(c.logAlpha)
	for f := 0; f < k; f++ {
		a, _ := math.Lgamma(float64(n - c.m[f] + 1))
		b, _ := math.Lgamma(float64(c.m[f]))
		lp += a + b - c.lgN1
	}
	// Group identical columns: sort feature indices by column, then count runs.
	ord := c.order[:k]
	for f := range ord {
		ord[f] = f
	}
	c.sortColumns(ord)
	run := 1
	for f := 1; f <= k; f++ {
		if f < k && c.sameColumn(ord[f-1], ord[f]) {
			run++
			continue
		}
		lf, _ := math.Lgamma(float64(run + 1))
		lp -= lf
		run = 1
	}
	return lp
}

// logJoint is log P(X|Z,σ_X,σ_A) + log P([Z]|α) + log p(α) + log p(σ_X²) + log p(σ_A²).
func (c *chain) logJoint() float64 {
	lj := c.logLik + c.logPriorZ() +
		logInvGamma(c.sx*c.sx, c.cfg.sxShape, c.cfg.sxScale) +
		logInvGamma(c.sa*c.sa, c.cfg.saShape, c.cfg.saScale)
	if c.cfg.tie == 0 {
		lj += logGamma(c.alpha, c.cfg.alphaShape, c.cfg.alphaRate)
	}
	return lj
}

// compareColumns orders features a and b by their columns of Z, read top to bottom.
func (c *chain) compareColumns(a, b int) int {
	for i := 0; i < c.n; i++ {
		za, zb := c.z[i*c.kc+a], c.z[i*c.kc+b]
		if za != zb {
			if za < zb {
				return -1
			}
			return 1
		}
	}
	return 0
}

func (c *chain) sameColumn(a, b int) bool { return c.compareColumns(a, b) == 0 }

// sortColumns sorts feature indices by column.
func (c *chain) sortColumns(ord []int) { slices.SortFunc(ord, c.compareColumns) }
