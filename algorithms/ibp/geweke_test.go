package ibp

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"featurelab/algorithms/internal/chol"
	"featurelab/internal/accuracy"
)

// Geweke's "getting it right" test (Geweke 2004, JASA 99:799). Two simulators of the
// joint distribution of (α, σ_X, σ_A, Z, X) on a tiny problem must agree:
//
//   - marginal-conditional: draw α, σ_X², σ_A² from their priors, Z ~ IBP(α),
//     A ~ N(0, σ_A²), X = ZA + N(0, σ_X²) — independent draws;
//   - successive-conditional: start from one such draw, then repeat: one full sweep of
//     the sampler given X (rows, α, column moves, Metropolis on σ's), then a fresh X
//     given Z and the σ's (A from its posterior given Z, X, then X from the likelihood).
//
// The second is a Markov chain whose stationary law is the joint prior only if every
// update of the sampler leaves the posterior invariant. Means (and second moments) of
// K, the number of ones in Z, α, σ_X and σ_A are compared by z-scores, with batch-means
// standard errors for the chain.

const (
	gewekeN, gewekeD = 5, 3
	gewekeDraws      = 100000 // marginal-conditional draws
	gewekeIters      = 40000  // successive-conditional iterations (after burn-in)
	gewekeBurn       = 1000
	gewekeBatches    = 40
	gewekeLimit      = 4.5 // |z| above which the simulators disagree
	gewekeMaxK       = 60  // a K this large has prior probability ~1e-40: divergence
)

var gewekeStatNames = []string{"K", "ones", "alpha", "sigmaX", "sigmaA",
	"K²", "ones²", "alpha²", "sigmaX²", "sigmaA²"}

// gewekeConfig uses InvGamma(3, 2) priors on σ_X² and σ_A² (mean 1, finite variance,
// so the z-tests have finite moments to compare) and a fixed Metropolis step: the
// burn-in adaptation is not part of the kernel under test.
func gewekeConfig(bug bug) *config {
	cfg := defaultConfig()
	cfg.sxShape, cfg.sxScale = 3, 2
	cfg.saShape, cfg.saScale = 3, 2
	cfg.step0 = 0.6
	cfg.bug = bug
	return cfg
}

func gewekeStats(k, ones int, alpha, sx, sa float64) []float64 {
	s := []float64{float64(k), float64(ones), alpha, sx, sa}
	for _, v := range s[:5] {
		s = append(s, v*v)
	}
	return s
}

// gewekeDraw draws (α, σ_X, σ_A, Z, X) from the model.
func gewekeDraw(rng *rand.Rand, cfg *config) (alpha, sx, sa float64, z []float64, k int, x []float64) {
	n, d := gewekeN, gewekeD
	alpha = distuv.Gamma{Alpha: cfg.alphaShape, Beta: cfg.alphaRate, Src: rng}.Rand()
	// σ² ~ InvGamma(a, scale b) ⇔ 1/σ² ~ Gamma(a, rate b).
	sx = 1 / math.Sqrt(distuv.Gamma{Alpha: cfg.sxShape, Beta: cfg.sxScale, Src: rng}.Rand())
	sa = 1 / math.Sqrt(distuv.Gamma{Alpha: cfg.saShape, Beta: cfg.saScale, Src: rng}.Rand())
	if cfg.tie > 0 {
		alpha = math.Exp(-cfg.tie / (2 * sx * sx))
	}
	z, k = drawPrior(rng, n, alpha)
	a := make([]float64, k*d)
	for i := range a {
		a[i] = sa * rng.NormFloat64()
	}
	x = make([]float64, n*d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			v := sx * rng.NormFloat64()
			for f := 0; f < k; f++ {
				v += z[i*k+f] * a[f*d+j]
			}
			x[i*d+j] = v
		}
	}
	return alpha, sx, sa, z, k, x
}

// redrawX replaces the chain's data by a draw from P(X | Z, σ_X, σ_A): A from its
// posterior given Z and the current X, N(H, σ_X²M) column by column, then X = ZA + noise.
// M and H must be fresh (they are after a sweep).
func redrawX(c *chain, rng *rand.Rand) {
	k, kc, d, n := c.k, c.kc, c.d, c.n
	l := make([]float64, kc*kc)
	copy(l, c.M)
	if !chol.Factor(l, k, kc, 0) {
		panic("posterior covariance of A not positive definite")
	}
	a := make([]float64, k*d)
	eps := make([]float64, k)
	for j := 0; j < d; j++ {
		for f := range eps {
			eps[f] = rng.NormFloat64()
		}
		for f := 0; f < k; f++ {
			v := c.H[f*d+j]
			for p := 0; p <= f; p++ {
				v += c.sx * l[f*kc+p] * eps[p]
			}
			a[f*d+j] = v
		}
	}
	x := c.x
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			v := c.sx * rng.NormFloat64()
			for f := 0; f < k; f++ {
				v += c.z[i*kc+f] * a[f*d+j]
			}
			x[i*d+j] = v
		}
	}
	c.setData(x)
	c.refresh()
}

// meanSE returns the mean of each statistic over rows of s and its standard error:
// plain for independent draws (batches == 0), batch means otherwise.
func meanSE(s [][]float64, batches int) (mean, se []float64) {
	p := len(s[0])
	mean, se = make([]float64, p), make([]float64, p)
	n := len(s)
	for q := 0; q < p; q++ {
		var sum float64
		for _, r := range s {
			sum += r[q]
		}
		mean[q] = sum / float64(n)
		if batches == 0 {
			var ss float64
			for _, r := range s {
				ss += (r[q] - mean[q]) * (r[q] - mean[q])
			}
			se[q] = math.Sqrt(ss / float64(n-1) / float64(n))
			continue
		}
		size := n / batches
		var ss float64
		for b := 0; b < batches; b++ {
			var bm float64
			for _, r := range s[b*size : (b+1)*size] {
				bm += r[q]
			}
			bm /= float64(size)
			ss += (bm - mean[q]) * (bm - mean[q])
		}
		se[q] = math.Sqrt(ss / float64(batches-1) / float64(batches))
	}
	return mean, se
}

// gewekeMarginals holds the marginal-conditional summaries, one per prior on α (the
// tie's λ², 0 for Gamma), worked out once for every test that needs them.
var gewekeMarginals struct {
	sync.Mutex
	byTie map[float64][2][]float64
}

// gewekeMarginal is the marginal-conditional simulator's summary under the prior on α
// of cfg (its tie).
func gewekeMarginal(tie float64) (mean, se []float64) {
	gewekeMarginals.Lock()
	defer gewekeMarginals.Unlock()
	if m, ok := gewekeMarginals.byTie[tie]; ok {
		return m[0], m[1]
	}
	{
		cfg := gewekeConfig(noBug)
		cfg.tie = tie
		rng := rand.New(rand.NewPCG(7, 11))
		s := make([][]float64, gewekeDraws)
		for it := range s {
			alpha, sx, sa, z, k, _ := gewekeDraw(rng, cfg)
			ones := 0
			for _, v := range z {
				ones += int(v)
			}
			s[it] = gewekeStats(k, ones, alpha, sx, sa)
		}
		mean, se = meanSE(s, 0)
	}
	if gewekeMarginals.byTie == nil {
		gewekeMarginals.byTie = map[float64][2][]float64{}
	}
	gewekeMarginals.byTie[tie] = [2][]float64{mean, se}
	return mean, se
}

// gewekeZ runs the successive-conditional simulator with the given bug and returns
// the z-score of each statistic against the marginal-conditional one.
func gewekeZ(t *testing.T, bug bug, iters int) []float64 {
	t.Helper()
	return gewekeZcfg(t, gewekeConfig(bug), iters)
}

func gewekeZcfg(t *testing.T, cfg *config, iters int) []float64 {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 5))
	alpha, sx, sa, z, k, x := gewekeDraw(rng, cfg)
	c := newChain(cfg, rng, x, gewekeN, gewekeD, z, k, alpha, sx, sa)
	ctx := context.Background()
	s := make([][]float64, 0, iters)
	for it := 0; it < gewekeBurn+iters; it++ {
		if err := c.sweep(ctx, it, false); err != nil {
			t.Fatal(err)
		}
		redrawX(c, rng)
		if c.k > gewekeMaxK {
			t.Logf("K = %d after %d iterations: the chain diverges", c.k, it)
			return []float64{math.Inf(1)}
		}
		if it < gewekeBurn {
			continue
		}
		ones := 0
		for _, m := range c.m[:c.k] {
			ones += m
		}
		s = append(s, gewekeStats(c.k, ones, c.alpha, c.sx, c.sa))
	}
	mMC, seMC := gewekeMarginal(cfg.tie)
	mSC, seSC := meanSE(s, gewekeBatches)
	zs := make([]float64, len(mMC))
	for q := range zs {
		zs[q] = (mSC[q] - mMC[q]) / math.Hypot(seMC[q], seSC[q])
		t.Logf("%-8s marginal %8.4f ± %.4f   successive %8.4f ± %.4f   z = %+.2f",
			gewekeStatNames[q], mMC[q], seMC[q], mSC[q], seSC[q], zs[q])
	}
	return zs
}

func maxAbs(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

func TestIBPGeweke(t *testing.T) {
	accuracy.Check(t)
	zs := gewekeZ(t, noBug, gewekeIters)
	if m := maxAbs(zs); m > gewekeLimit {
		t.Errorf("the sampler's stationary law differs from the prior: max |z| = %.2f > %v", m, gewekeLimit)
	}
}

// gewekeTie is the λ² of the tied prior's Geweke test: with σ_X² ~ InvGamma(3, 2) it
// gives α = exp(−λ²/2σ_X²) around 0.35, so that Z has a few features to test on.
const gewekeTie = 2.0

// TestIBPGewekeTied is the Geweke test of the tied prior on α (learn.AlphaTied): α is
// a function of σ_X, and σ_X's Metropolis step must weigh the prior of Z for the
// sampler to keep the joint law.
func TestIBPGewekeTied(t *testing.T) {
	accuracy.Check(t)
	for _, tc := range []struct {
		name string
		bug  bug
		want bool // the simulators agree
	}{
		{"the sampler", noBug, true},
		{"without the prior of Z in σ_X's step", bugTiedNoZPrior, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := gewekeConfig(tc.bug)
			cfg.tie = gewekeTie
			m := maxAbs(gewekeZcfg(t, cfg, 4*gewekeIters))
			if agree := m <= gewekeLimit; agree != tc.want {
				t.Errorf("max |z| = %.2f against the limit %v; want agreement %v", m, gewekeLimit, tc.want)
			}
		})
	}
}

// TestIBPGewekeCatchesBugs checks that the comparison has the power to see known
// mistakes: each injected bug must push some statistic past the limit.
func TestIBPGewekeCatchesBugs(t *testing.T) {
	accuracy.Check(t)
	for _, tc := range []struct {
		name string
		bug  bug
	}{
		{"no Jacobian in the log-σ Metropolis step", bugNoJacobian},
		{"gamma rate passed as a scale", bugGammaScale},
		{"Poisson(α) instead of Poisson(α/N) for K_new", bugPoissonAlpha},
	} {
		t.Run(tc.name, func(t *testing.T) {
			zs := gewekeZ(t, tc.bug, gewekeIters/5)
			if m := maxAbs(zs); m <= gewekeLimit {
				t.Errorf("bug not caught: max |z| = %.2f ≤ %v", m, gewekeLimit)
			}
		})
	}
}
