package learn

import (
	"gonum.org/v1/gonum/mat"
)

// Options configures every learner. Zero fields take the documented defaults; a field a
// learner does not use is ignored.
type Options struct {
	// K is the number of features (kfeatures) or clusters (kmeans). Default DefaultK.
	K int
	// Lambda2 is the penalty λ² paid per feature (bpmeans, collapsed, stepwise) or per
	// cluster (dpmeans). Must be ≥ 0.
	Lambda2 float64
	// Restarts is the number of independent restarts; the best objective wins. Default 100.
	Restarts int
	// MaxIter caps the iterations of one restart. Default 1000.
	MaxIter int
	// MaxK caps the number of features stepwise K-features tries. Default 30.
	MaxK int
	// Sweeps is the number of Gibbs sweeps of the IBP sampler. Default 1000.
	Sweeps int
	// Divergence selects the Bregman divergence of DP-means: "euclidean" (default),
	// "kl" (rows are normalised histograms) or "idiv" (generalised I-divergence).
	Divergence string
	// Groups is, for the hard HDP, each row's group 0…J−1 (its images' subfolder); nil
	// puts every row in one group.
	Groups []int
	// KFrom is how a learner that walks a λ² path (stepwise) has its K chosen when no
	// λ² is given: KFromObjects (also "") or KFromWidest. The learner itself reports the
	// widest; the pipeline, which sees the pictures, applies the other rule.
	KFrom string
	// Nuisance, when set, gives for a fit (its N×K Z and K×D A on X) rows in X's space
	// along which an image may move without owning another feature: the small shifts of
	// the fit's pictures. Stepwise's λ² path fits each K with the directions of the K
	// before's fit (then of its own) projected out of X, so that a feature is not spent
	// on them. Nil rows: nothing to project.
	Nuisance func(Z, A *mat.Dense) *mat.Dense
	// Seed makes a run reproducible: the same seed gives the same result.
	Seed uint64
	// Workers is the number of goroutines restarts run on. 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when set, is told how the run advances. It is called from worker
	// goroutines, possibly concurrently, so it must be cheap and safe for concurrent use.
	Progress func(Progress)

	// IBP Gibbs sampler.

	// Init selects the IBP sampler's starting allocation: "prior" (default: a draw from
	// the IBP(Alpha0) prior, Liu & Li App. A), "single" (one feature owned by every row),
	// "bpmeans" (the Z of a BP-means run with Lambda2, or the farthest-first λ² for K = 5
	// when Lambda2 is 0) or "given" (InitZ). Setting InitZ implies "given".
	Init string
	// InitZ is a starting N×K 0/1 allocation for the IBP sampler, e.g. a BP-means Z.
	InitZ *mat.Dense
	// StartFrom is the learner whose Z starts the IBP sampler under Init "bpmeans":
	// BP-means, handed in by the registry (algorithms) so that ibp need not import
	// features.
	StartFrom LearnFunc
	// Chains is the number of independent IBP chains, run in parallel on Workers; the
	// chain whose best sample has the highest log joint is reported. Default 1.
	Chains int
	// ReportOn, when set, is the data the IBP sampler's result is given on (its A, its
	// objectives, every chain's) when the chains sample another view of the same
	// images, X: the pictures seen through a slight blur. Same shape as X.
	ReportOn *mat.Dense
	// AlphaPrior is the IBP sampler's prior on α: AlphaGamma (also "": α ~ Gamma(1, 1),
	// the papers' model) or AlphaTied (α = exp(−Lambda2/2σ_X²), the IBP whose
	// small-variance limit is BP-means at Lambda2; Lambda2 must be > 0).
	AlphaPrior string
	// Alpha0, SigmaX0 and SigmaA0 are the IBP sampler's starting α, σ_X and σ_A. Default:
	// α = 1, and σ_X = σ_A = the root mean square of X, the data's own scale.
	Alpha0, SigmaX0, SigmaA0 float64
}

// The IBP sampler's priors on α (Options.AlphaPrior).
const (
	// AlphaGamma draws α | Z from its Gamma(1, 1) prior's posterior (Griffiths &
	// Ghahramani; Liu & Li eq. 10).
	AlphaGamma = "gamma"
	// AlphaTied ties α to σ_X by α = exp(−λ²/2σ_X²) (MAD-Bayes §3.1): a feature then
	// costs λ²/2σ_X² in log probability, λ² in squared error, as in BP-means.
	AlphaTied = "tied"
)

// The rules that choose K off a λ² path (Options.KFrom).
const (
	// KFromObjects is the largest K of the path whose features are all objects that come
	// and go, each once: the count of the things on a scene.
	KFromObjects = "objects"
	// KFromWidest is the K best for the widest range of λ² (the papers' own choice).
	KFromWidest = "widest"
)

// Progress reports how far a run has come.
type Progress struct {
	Stage string // what is being done: "restart", "K", "sweep", …
	Done  int    // units of the stage finished
	Total int    // units of the stage in all (0 if unknown)
	K     int    // the K being tried or the current K
	Best  float64
	// Chains is, for Stage "sweep", how many chains share Total: Done counts the sweeps
	// of all of them.
	Chains int
	// Chain and Sweep are, for Stage "sweep", the chain that reports (1…Chains) and the
	// sweeps it has done, of Total/Chains.
	Chain, Sweep int
}

// DefaultK is the number of features or clusters the fixed-K learners use when
// Options.K is 0.
const DefaultK = 5

// DefaultRestarts and DefaultMaxIter are what Check fills in for Options.Restarts and
// Options.MaxIter left at 0; the learners' doc comments quote them.
const (
	DefaultRestarts = 100
	DefaultMaxIter  = 1000
)

// KOrDefault returns o.K, or DefaultK when it is 0.
func (o Options) KOrDefault() int {
	if o.K == 0 {
		return DefaultK
	}
	return o.K
}
