package budget

import (
	"cmp"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/pca"
)

// The memory plan of a run, made before the data matrix is: what the process will hold
// at its peak beyond the pixels, so that a folder that would not fit is refused in one
// line instead of ending in an out-of-memory trace half-way. It is the largest of the
// stages that follow the load, each on top of the pixels, which every stage keeps:
// converting the pictures, fitting the PCA, and running the learner with the model it
// keeps and, for a feature learner, the reading of its fits in pixel space. The Go heap
// runs above what is live (garbage not yet collected). The process's own base is not in
// it: the room it is held against is measured with the process running.
// docs/DESIGN.md has the plan against the measured peaks.

// heapSlack is how far above what is live the heap runs at its peak, as a fraction of
// the stage's own bytes, under the soft limit Stage sets; heapFloor is the least
// the heap grows to whatever is live (the Go collector's smallest goal, 4 MB).
const (
	heapSlack = 0.15
	heapFloor = 4 << 20
)

// Run is what a run on n images of p values each takes beyond their data matrix:
// the largest of its stages with the heap's slack. components
// is the PCA's (0: none, the scores a float64 copy of the data), workers the goroutines
// that load and read; feature learners (algorithms.Algorithm.LeastSquares) read their fits
// in pixel space, opt saying how many features they reach.
func Run(alg *algorithms.Algorithm, opt learn.Options, n, p, components, workers int) int64 {
	N, P := int64(n), int64(p)
	// The loader converts every picture into a float64 row of its own, and resamples
	// into a second, on every worker.
	convert := int64(workers) * 2 * P * 8
	fit := pca.Memory(n, p, components)
	// After the fit: the model's components and mean (P × D and P), its scores, and the
	// thumbnails' own smaller model.
	d := int64(min(components, max(n-1, 1), p))
	kept := P*d*8 + P*8 + N*d*8
	if components <= 0 {
		kept = N * P * 8
	}
	if alg.LeastSquares() && components > 0 {
		// The blur's band holds at most the component pictures whole.
		// A few pictures a feature on every worker, or, counting the objects on the
		// fits of a λ² path, two pictures of every feature it reads, whichever is more.
		pictures := max(Reading(workers, p)-pca.BlurMetricBytes(), 2*int64(featuresReached(alg, opt, n, int(d)))*P*8)
		kept += pictures + min(pca.BlurMetricBytes(), 2*8*P*d)
	}
	stage := max(convert, fit, kept)
	return stage + int64(heapSlack*float64(stage)) + heapFloor
}

// Reading is what reading a fit of pictures of p values takes on workers
// goroutines: a band of the component pictures blurred (pca.BlurMetric) and a few
// pictures a feature on every worker.
func Reading(workers, p int) int64 {
	return pca.BlurMetricBytes() + int64(workers)*8*8*int64(p)
}

// featuresReached is the most features a run of algo with opt reads on n images of d
// PCA dimensions: every K of its λ² path, up to MaxK (30 by default), for a learner
// that walks one; its K otherwise.
func featuresReached(alg *algorithms.Algorithm, opt learn.Options, n, d int) int {
	if alg.StepsK() {
		return max(1, min(cmp.Or(opt.MaxK, defaultMaxK), n-1, d))
	}
	return max(opt.K, learn.DefaultTargetK)
}

// defaultMaxK is the features stepwise K-features tries at most when MaxK is 0.
const defaultMaxK = 30
