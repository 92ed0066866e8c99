package learn

import "gonum.org/v1/gonum/mat"

// CurvePoint is one point of stepwise K-features' objective-vs-K curve.
type CurvePoint struct {
	K           int
	Objective   float64 // ‖X − ZA‖²_F of the best restart at this K
	BPObjective float64 // Objective + λ²K
}

// PathFit is one K's best fit on a stepwise λ² path.
type PathFit struct {
	K         int
	Z, A      *mat.Dense
	Objective float64
	// RestartObjectives are the restarts' objectives at this K (Result.RestartObjectives
	// of a run that ends at it); nil when not kept, as in a saved analysis.
	RestartObjectives []float64
}

// Result is what every learner returns.
type Result struct {
	Algorithm string
	// Z is the N×K binary allocation (0/1 entries); for clustering it is one-hot.
	Z *mat.Dense
	// A is the K×D matrix of features (cluster centres for clustering).
	A *mat.Dense
	K int
	// Objective is the K-features term ‖X − ZA‖²_F (for Bregman DP-means: the summed
	// divergence). For the IBP, whose A is the posterior mean, it is the least-squares
	// ‖X − ZA‖²_F of its Z, so that it compares with the other learners'.
	Objective float64
	// PosteriorObjective is the IBP's ‖X − ZA‖²_F with its A, the posterior mean of the
	// features: at least Objective, by the ridge the prior on A adds.
	PosteriorObjective float64
	// BPObjective is Objective + λ²K, the BP-means (or DP-means) objective.
	BPObjective float64
	// RestartObjectives holds the final objective of every restart, in restart order; for
	// K-features on more rows than its restarts search on, their objectives on that
	// sample, scaled to all the rows.
	RestartObjectives []float64
	// Curve is stepwise K-features' objective-vs-K curve.
	Curve []CurvePoint
	// PathFits holds, for a stepwise run that chose λ² from its path, the best fit of
	// every K on the path (Z, A and the objective, in increasing K), so another K can be
	// shown without running again.
	PathFits []PathFit
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
	// LogAlpha is, under the tied prior (AlphaTied; 0 otherwise), the posterior mean of
	// log α over the same sweeps: α is then often below the smallest float, and log α
	// tells what it was.
	LogAlpha float64
	// KHistogram[k] counts the reported chain's second-half sweeps that ended with K = k.
	KHistogram []int
	// Trace is the per-sweep record of the reported chain.
	Trace *IBPTrace
	// MAPZ is the reported chain's highest-log-joint allocation and MAPLogJoint its log joint.
	MAPZ        *mat.Dense
	MAPLogJoint float64
	// ZProbability is N×K: for each image and each feature of Z, the share of the
	// reported chain's second-half sweeps in which the image owns it (the sweeps' features
	// matched to Z's by their owners). Empty when K is 0.
	ZProbability *mat.Dense
}

// IBPTrace is the per-sweep record of one chain of the IBP Gibbs sampler.
type IBPTrace struct {
	K        []int     // number of features after each sweep
	Alpha    []float64 // α after each sweep
	SigmaX   []float64 // σ_X after each sweep
	SigmaA   []float64 // σ_A after each sweep
	LogJoint []float64 // log P(X|Z,σ_X,σ_A) + log P([Z]|α) + log p(α) + log p(σ_X²) + log p(σ_A²)
	// AcceptX and AcceptA are the Metropolis acceptance rates of log σ_X and log σ_A
	// after burn-in, when the step sizes are frozen.
	AcceptX, AcceptA float64
}
