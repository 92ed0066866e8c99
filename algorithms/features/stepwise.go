package features

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// Stepwise runs stepwise K-features (MAD-Bayes §5): for K = 1, 2, … it keeps the best of
// opt.Restarts (default 100) restarts of K-features and stops as soon as the BP-means
// objective ‖X − ZA‖²_F + λ²K (Eq. 6, λ² = opt.Lambda2, which must be > 0) rises above
// that of the K before. It returns that previous K's Z and A, and in Curve every K tried,
// the one that rose included. It assumes, as the paper does, that the minimised K-features
// objective has decreasing decrements in K, so the first rise is the minimum.
//
// K runs up to opt.MaxK (default 30), capped at N and at 64. It also stops when the best
// restart at K had to drop features (every row is already fitted, nearly exactly, by
// fewer); that fit is the answer when its BP objective beats the previous K's. Each K gets
// its own seed derived from opt.Seed, so a run is reproducible. Progress reports Stage "K"
// as each K starts and Stage "restart" within it.
//
// With opt.Lambda2 = 0 it chooses λ² itself (stepwisePath): the returned Lambda2 is the
// centre of the chosen K's interval on the λ² path.
func Stepwise(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	start := time.Now()
	if !(opt.Lambda2 >= 0) || math.IsInf(opt.Lambda2, 0) {
		return nil, fmt.Errorf("lambda2 must be ≥ 0 for stepwise (0 chooses it from the λ² path), got %v", opt.Lambda2)
	}
	if opt.Lambda2 == 0 {
		return stepwisePath(ctx, X, opt, start)
	}
	if err := learn.PositiveLambda2("stepwise", opt.Lambda2); err != nil {
		return nil, err
	}
	run, err := newStepwiseRun(X, opt)
	if err != nil {
		return nil, err
	}
	p, maxK := run.p, run.maxK
	lambda2 := opt.Lambda2
	var (
		best   *kfFit
		bestBP float64
		curve  []learn.CurvePoint
	)
	for k := 1; k <= maxK; k++ {
		fit, err := run.fitK(ctx, k)
		if err != nil {
			return nil, err
		}
		if fit.k < k {
			// The best restart dropped features: its rows were already fitted (nearly)
			// exactly by fit.k of them, so no larger K can do better. That fit can still
			// beat the best K − 1 (whose restarts may not have found it): keep it then,
			// as the curve's point at fit.k, and stop.
			if bp := fit.obj + lambda2*float64(fit.k); best == nil || bp < bestBP {
				best, bestBP = fit, bp
				for len(curve) > 0 && curve[len(curve)-1].K >= fit.k {
					curve = curve[:len(curve)-1]
				}
				curve = append(curve, learn.CurvePoint{K: fit.k, Objective: fit.obj, BPObjective: bp})
			}
			break
		}
		bp := fit.obj + lambda2*float64(k)
		curve = append(curve, learn.CurvePoint{K: k, Objective: fit.obj, BPObjective: bp})
		if best != nil && bp > bestBP {
			break
		}
		best, bestBP = fit, bp
	}
	res, err := p.result(best)
	if err != nil {
		return nil, err
	}
	return finishStepwise(res, lambda2, curve, start), nil
}

// finishStepwise fills in what both forms of stepwise report beyond the fit: λ², the
// BP-means objective, the curve and the time.
func finishStepwise(res *learn.Result, lambda2 float64, curve []learn.CurvePoint, start time.Time) *learn.Result {
	res.Lambda2 = lambda2
	res.BPObjective = res.Objective + lambda2*float64(res.K)
	res.Curve = curve
	res.Seconds = time.Since(start).Seconds()
	return res
}

// stepwiseRun is what both forms of stepwise share: the problem, the checked options,
// and the largest K to try.
type stepwiseRun struct {
	p    *kfProblem
	cfg  learn.Config
	opt  learn.Options
	maxK int
	last *kfFit // the best fit of the K before, which the next K grows (kfWork.grow)
}

func newStepwiseRun(X *mat.Dense, opt learn.Options) (*stepwiseRun, error) {
	cfg, err := learn.Check(X, opt)
	if err != nil {
		return nil, err
	}
	maxK, err := stepwiseMaxK(X, opt)
	if err != nil {
		return nil, err
	}
	return &stepwiseRun{p: newKFProblem(X), cfg: cfg, opt: opt, maxK: maxK}, nil
}

// fitK reports that K begins and returns the best of its restarts, each K with its own
// seed derived from the run's, and one restart growing the previous K's best fit.
func (r *stepwiseRun) fitK(ctx context.Context, k int) (*kfFit, error) {
	if r.opt.Progress != nil {
		r.opt.Progress(learn.Progress{Stage: "K", Done: k - 1, Total: r.maxK, K: k})
	}
	var starts []kfStart
	if r.last != nil && r.last.k < k {
		starts = []kfStart{{k: r.last.k, z: r.last.z}}
	}
	fit, err := r.p.best(ctx, k, r.cfg, stepwiseSeed(r.opt.Seed, k), starts, restartProgress(r.opt.Progress, k))
	if err == nil {
		r.last = fit
	}
	return fit, err
}

// ShrinkStage is the learn.Progress stage of a λ² path's backward pass (shrink): Done of
// Total K are refitted, K the one begun.
const ShrinkStage = "refitting each K from the one above"

// reportShrink tells opt.Progress that the backward pass from K = top begins K = k.
func (r *stepwiseRun) reportShrink(k, top int) {
	if r.opt.Progress != nil {
		r.opt.Progress(learn.Progress{Stage: ShrinkStage, Done: top - 1 - k, Total: top - 1, K: k})
	}
}

// shrink is the path's backward pass: from the largest K fitted down, the best fit of
// K + 1 with each of its features dropped in turn starts a restart at K, and replaces
// fits[K] when it ends lower. It costs K + 1 restarts per K, against the opt.Restarts of
// the forward pass, and makes the curve what the best fits of neighbouring K imply.
func (r *stepwiseRun) shrink(ctx context.Context, fits map[int]*kfFit) error {
	top := 0
	for k := range fits {
		top = max(top, k)
	}
	for k := top - 1; k >= 1; k-- {
		r.reportShrink(k, top)
		above, ok := fits[k+1]
		if !ok {
			continue
		}
		cfg := r.cfg
		cfg.Restarts = k + 1
		fit, err := r.p.best(ctx, k, cfg, stepwiseSeed(r.opt.Seed, k), shrinkStarts(above), nil)
		if err != nil {
			return err
		}
		if cur, ok := fits[fit.k]; !ok || fit.obj < cur.obj {
			fits[fit.k] = fit
		}
	}
	return nil
}

// shrinkStarts returns the warm starts for K = fit.k − 1 from fit: fit's codes with each
// of its features dropped in turn.
func shrinkStarts(fit *kfFit) []kfStart {
	starts := make([]kfStart, fit.k)
	for j := range starts {
		z := make([]uint64, len(fit.z))
		for i, code := range fit.z {
			z[i] = compressCode(code, 1<<j)
		}
		starts[j] = kfStart{k: fit.k - 1, z: z}
	}
	return starts
}

// stepwiseMaxK is the largest K a stepwise run tries: opt.MaxK (default 30), capped at
// N.
func stepwiseMaxK(X *mat.Dense, opt learn.Options) (int, error) {
	n, _ := X.Dims()
	maxK := opt.MaxK
	switch {
	case maxK < 0:
		return 0, fmt.Errorf("maxk must be ≥ 0, got %d", maxK)
	case maxK > maxFeatures:
		return 0, fmt.Errorf("maxk must be ≤ %d, got %d", maxFeatures, maxK)
	case maxK == 0:
		maxK = 30
	}
	return min(maxK, n), nil
}

// PathFlat is where a path run stops: once the objective's decrease at a K falls below
// this share of the largest decrease so far, the curve has flattened and the K after it
// only win for ever smaller λ². On the real tabletop photos it stops one or two K past
// the answer (docs/DESIGN.md, "Measurements behind the code").
const PathFlat = 0.05

// stepwisePath is stepwise K-features with no λ² given: it tries K = 1, 2, … until the
// objective has flattened (PathFlat), keeping the best restart of every K, and returns
// the K whose λ² interval on the path is widest (MostStable): the K the data support
// for the largest range of prices per feature, with λ² at the interval's centre. Where
// no K is interior to the path (fewer than three tried), it returns the last.
func stepwisePath(ctx context.Context, X *mat.Dense, opt learn.Options, start time.Time) (*learn.Result, error) {
	run, err := newStepwiseRun(X, opt)
	if err != nil {
		return nil, err
	}
	p, maxK := run.p, run.maxK
	var curve []learn.CurvePoint
	fits := map[int]*kfFit{}
	probs := map[int]*kfProblem{} // with opt.Nuisance: the problem each K's fit is of
	var maxDec float64
	for k := 1; k <= maxK; k++ {
		var fit *kfFit
		var err error
		if opt.Nuisance != nil {
			var fp *kfProblem
			fit, fp, err = run.fitKNuisance(ctx, k)
			if err == nil {
				if _, ok := fits[fit.k]; !ok || fit.obj < fits[fit.k].obj {
					probs[fit.k] = fp
				}
			}
		} else {
			fit, err = run.fitK(ctx, k)
		}
		if err != nil {
			return nil, err
		}
		if _, ok := fits[fit.k]; !ok || fit.obj < fits[fit.k].obj {
			fits[fit.k] = fit
		}
		curve = append(curve, learn.CurvePoint{K: fit.k, Objective: fit.obj})
		if fit.k < k {
			break // every row is fitted by fewer features: no larger K does better
		}
		if k > 1 {
			dec := curve[len(curve)-2].Objective - fit.obj
			maxDec = max(maxDec, dec)
			if dec < PathFlat*maxDec {
				break
			}
		}
	}
	if opt.Nuisance != nil {
		err = run.shrinkNuisance(ctx, fits, probs)
	} else {
		err = run.shrink(ctx, fits)
	}
	if err != nil {
		return nil, err
	}
	result := func(k int) (*learn.Result, error) {
		if q, ok := probs[k]; ok {
			return q.result(fits[k])
		}
		return p.result(fits[k])
	}
	// A K whose restarts dropped features stands for the K it fitted; the curve holds
	// the best fit of each K once.
	curve = curve[:0]
	for k := 1; k <= maxK; k++ {
		if f, ok := fits[k]; ok {
			curve = append(curve, learn.CurvePoint{K: k, Objective: f.obj})
		}
	}
	path := LambdaPath(curve)
	i, lambda2, ok := MostStable(path)
	if !ok {
		i = len(path) - 1
		lambda2 = path[i].Lambda2High
		if math.IsInf(lambda2, 1) {
			lambda2 = 0
		}
	}
	res, err := result(path[i].K)
	if err != nil {
		return nil, err
	}
	for _, v := range path {
		r := res
		if v.K != res.K {
			if r, err = result(v.K); err != nil {
				return nil, err
			}
		}
		res.PathFits = append(res.PathFits, learn.PathFit{K: r.K, Z: r.Z, A: r.A, Objective: r.Objective, RestartObjectives: r.RestartObjectives})
	}
	for j := range curve {
		curve[j].BPObjective = curve[j].Objective + lambda2*float64(curve[j].K)
	}
	return finishStepwise(res, lambda2, curve, start), nil
}

// stepwiseSeed derives the seed of step K from the run's seed (SplitMix64 finaliser), so
// the steps' restarts do not share random streams.
func stepwiseSeed(seed uint64, k int) uint64 {
	z := seed + uint64(k)*0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
