package cluster

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// DefaultTargetK is the number of features the farthest-first λ² aims at when none is
// given; it is learn.DefaultTargetK, named here for the callers of this package.
const DefaultTargetK = learn.DefaultTargetK

// FarthestFirstLambda2 proposes the DP-means penalty λ² for about k clusters by the
// farthest-first heuristic of Kulis & Jordan (2012, §6), which Jiang, Kulis & Jordan
// (2012, §5) generalise to Bregman divergences: start a set T with the global mean; k
// times, find the row with the largest divergence to T (to its nearest member of T) and
// add it to T; λ² is the largest divergence found in round k. Equivalently: with the
// mean and k − 1 farthest-first rows as centres, λ² is the divergence of the row farthest
// from all of them, so those k centres leave no row beyond λ², the radius DP-means opens
// clusters at. Ties go to the lowest row index, so the answer is deterministic.
//
// div is a divergence name as in Options.Divergence ("" means euclidean). It returns 0
// when it cannot propose anything: k < 1, k > N, an unknown divergence, or data the
// divergence rejects (DPMeans reports those as errors).
func FarthestFirstLambda2(X *mat.Dense, k int, div string) float64 {
	kind, err := parseDivergence(div)
	if err != nil {
		return 0
	}
	b, err := newBregData(X, kind)
	if err != nil || k < 1 || k > b.n {
		return 0
	}
	mean, lmean := b.mean()
	return b.farthestFirst(k, mean, lmean)
}

// farthestFirst is FarthestFirstLambda2 on prepared data, for 1 ≤ k ≤ N: learn's
// traversal with this divergence. A centre is a row itself, so its logs are the row's
// floored logs.
func (b *bregData) farthestFirst(k int, mean, lmean []float64) float64 {
	v, _ := b.farthestFirstContext(context.Background(), k, mean, lmean, nil)
	return v
}

// farthestFirstContext is farthestFirst stopped when ctx is done, telling report how
// many rounds are done (learn.FarthestFirstContext).
func (b *bregData) farthestFirstContext(ctx context.Context, k int, mean, lmean []float64, report func(done, total int)) (float64, error) {
	return learn.FarthestFirstContext(ctx, b.n, k,
		func(i int) float64 {
			y, ly := b.row(i)
			return b.div(y, ly, mean, lmean, math.Inf(1))
		},
		func(i, c int, bound float64) float64 {
			y, ly := b.row(i)
			cy, cly := b.row(c)
			return b.div(y, ly, cy, cly, bound)
		}, report)
}
