package features

import (
	"context"
	"fmt"
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
func Stepwise(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	start := time.Now()
	if err := learn.PositiveLambda2("stepwise", opt.Lambda2); err != nil {
		return nil, err
	}
	cfg, err := learn.Check(X, opt)
	if err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	maxK := opt.MaxK
	switch {
	case maxK < 0:
		return nil, fmt.Errorf("maxk must be ≥ 0, got %d", maxK)
	case maxK > maxFeatures:
		return nil, fmt.Errorf("maxk must be ≤ %d, got %d", maxFeatures, maxK)
	case maxK == 0:
		maxK = 30
	}
	maxK = min(maxK, n)

	p := newKFProblem(X)
	lambda2 := opt.Lambda2
	var (
		best   *kfFit
		bestBP float64
		curve  []learn.CurvePoint
	)
	for k := 1; k <= maxK; k++ {
		if opt.Progress != nil {
			opt.Progress(learn.Progress{Stage: "K", Done: k - 1, Total: maxK, K: k})
		}
		fit, err := p.best(ctx, k, cfg, stepwiseSeed(opt.Seed, k), restartProgress(opt.Progress, k))
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
	res.Algorithm = "stepwise"
	res.Lambda2 = lambda2
	res.BPObjective = res.Objective + lambda2*float64(res.K)
	res.Curve = curve
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// stepwiseSeed derives the seed of step K from the run's seed (SplitMix64 finaliser), so
// the steps' restarts do not share random streams.
func stepwiseSeed(seed uint64, k int) uint64 {
	z := seed + uint64(k)*0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
