package algorithms

import (
	"gonum.org/v1/gonum/mat"
)

// Options configures every learner. Zero fields take the documented defaults; a field a
// learner does not use is ignored.
type Options struct {
	// K is the number of features (kfeatures) or clusters (kmeans). Default 5.
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
	// Chains is the number of independent IBP chains, run in parallel on Workers; the
	// chain whose best sample has the highest log joint is reported. Default 1.
	Chains int
	// Alpha0, SigmaX0 and SigmaA0 are the IBP sampler's starting α, σ_X and σ_A. Default 1.
	Alpha0, SigmaX0, SigmaA0 float64
}

// Progress reports how far a run has come.
type Progress struct {
	Stage string // what is being done: "restart", "K", "sweep", …
	Done  int    // units of the stage finished
	Total int    // units of the stage in all (0 if unknown)
	K     int    // the K being tried or the current K
	Best  float64
}

// CurvePoint is one point of stepwise K-features' objective-vs-K curve.
type CurvePoint struct {
	K           int
	Objective   float64 // ‖X − ZA‖²_F of the best restart at this K
	BPObjective float64 // Objective + λ²K
}

// Result is what every learner returns.
type Result struct {
	Algorithm string
	// Z is the N×K binary allocation (0/1 entries); for clustering it is one-hot.
	Z *mat.Dense
	// A is the K×D matrix of features (cluster centres for clustering).
	A *mat.Dense
	K int
	// Objective is the K-features term ‖X − ZA‖²_F (for Bregman DP-means: the summed divergence).
	Objective float64
	// BPObjective is Objective + λ²K, the BP-means (or DP-means) objective.
	BPObjective float64
	// RestartObjectives holds the final objective of every restart, in restart order.
	RestartObjectives []float64
	// Curve is stepwise K-features' objective-vs-K curve.
	Curve []CurvePoint
	// Iterations is the number of iterations of the winning restart.
	Iterations int
	// Seconds is the wall-clock time of the run.
	Seconds float64
	// Lambda2 is the λ² used (chosen by the farthest-first heuristic when not given).
	Lambda2 float64

	// IBP Gibbs sampler.

	// Alpha, SigmaX and SigmaA are the posterior means of α, σ_X and σ_A over the second
	// half of the sweeps of the reported chain.
	Alpha, SigmaX, SigmaA float64
	// KHistogram[k] counts the reported chain's second-half sweeps that ended with K = k.
	KHistogram []int
	// Trace is the per-sweep record of the reported chain.
	Trace *IBPTrace
	// MAPZ is the reported chain's highest-log-joint allocation and MAPLogJoint its log joint.
	MAPZ        *mat.Dense
	MAPLogJoint float64
}
