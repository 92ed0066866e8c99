package learn

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"
)

// DefaultTargetK is the number of features the farthest-first λ² aims at when none is
// given: the window's proposal and Init "bpmeans" of the IBP sampler. It is here
// so that both families read one value.
const DefaultTargetK = 5

// FarthestFirst is the farthest-first traversal behind every λ² proposal (Kulis & Jordan
// 2012, §6; Jiang, Kulis & Jordan 2012, §5 for Bregman divergences), on n rows: start a
// set T with the global mean; k times, find the row with the largest divergence to T (to
// its nearest member of T) and add it to T; return the largest divergence found in round
// k (or 0 once every row lies on T). toMean(i) is row i's divergence to the mean and
// toRow(i, c, bound) its divergence to row c; toRow may return +Inf once the value is at
// least bound. Ties go to the lowest row index, so the answer is deterministic. k ≥ 1.
func FarthestFirst(n, k int, toMean func(i int) float64, toRow func(i, c int, bound float64) float64) float64 {
	v, _ := FarthestFirstContext(context.Background(), n, k, toMean, toRow, nil)
	return v
}

// FarthestFirstContext is FarthestFirst for a large k, each round a pass over the n
// rows: it returns ctx's error once ctx is done, looking every 64 rounds, and tells
// report (when not nil) the rounds done of k as often.
func FarthestFirstContext(ctx context.Context, n, k int, toMean func(i int) float64, toRow func(i, c int, bound float64) float64,
	report func(done, total int)) (float64, error) {
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = toMean(i)
	}
	for round := 1; ; round++ {
		if round%64 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			if report != nil {
				report(round, k)
			}
		}
		far := 0
		for i, v := range dist {
			if v > dist[far] {
				far = i
			}
		}
		if round == k || dist[far] == 0 {
			return dist[far], nil
		}
		for i := range dist {
			if v := toRow(i, far, dist[i]); v < dist[i] {
				dist[i] = v
			}
		}
	}
}

// FarthestFirstLambda2 is FarthestFirst with the squared Euclidean distance on the rows
// of X: the DP-means and BP-means penalty for about k clusters or features. It returns 0
// when it cannot propose anything: k < 1, k > N, or X empty or not finite.
func FarthestFirstLambda2(X *mat.Dense, k int) float64 {
	if CheckData(X) != nil {
		return 0
	}
	n, d := X.Dims()
	if k < 1 || k > n {
		return 0
	}
	return FarthestFirstRows(FlatRows(X), n, d, k)
}

// FarthestFirstRows is FarthestFirstLambda2 on the n×d rows of x, row-major, for k ≥ 1
// (0 once k exceeds the distinct rows): for callers that hold their rows flat (the
// segmenter's pixels).
func FarthestFirstRows(x []float64, n, d, k int) float64 {
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range x[i*d : (i+1)*d] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	return FarthestFirst(n, k,
		func(i int) float64 { return SqDistBounded(x[i*d:(i+1)*d], mean, math.Inf(1)) },
		func(i, c int, bound float64) float64 {
			return SqDistBounded(x[i*d:(i+1)*d], x[c*d:(c+1)*d], bound)
		})
}
