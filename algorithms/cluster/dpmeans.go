package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// DPMeans clusters the rows of X with DP-means (Kulis & Jordan 2012; MAD-Bayes §2,
// Eq. 3), or with its exponential-family generalisation when opt.Divergence is "kl" or
// "idiv" (Jiang, Kulis & Jordan 2012, §3.2). It minimises
//
//	Σₙ d(xₙ, μ_{zₙ}) + λ²K
//
// over the number of clusters K, the assignment z and the centres μ, where d is the
// Bregman divergence of opt.Divergence: squared Euclidean distance (default), KL
// divergence between rows normalised to histograms (rows must be non-negative with a
// positive sum), or generalised I-divergence (rows must be non-negative). MAD-Bayes writes
// the penalty as λ²(K − 1); the offset changes no minimiser.
//
// λ² is opt.Lambda2. When that is 0 and opt.K > 0, λ² comes from the farthest-first
// heuristic for a target of opt.K clusters (FarthestFirstLambda2); Result.Lambda2 records
// it. A restart starts with one cluster at the global mean, then repeats: visit the rows in
// a new random order (from the restart's own generator, seeded by opt.Seed) at every pass,
// as Jiang, Kulis & Jordan do (§5), move each to its nearest centre unless
// every centre is farther than λ², in which case it opens a new cluster at itself; move
// every centre to the mean of its rows (the minimiser for any Bregman divergence); drop
// empty clusters. It stops when no row moves or the objective stops decreasing (at most
// opt.MaxIter, default 1000, passes). The best of opt.Restarts (default 100) restarts wins.
//
// Objective is the summed divergence (for euclidean, ‖X − ZA‖²_F), BPObjective adds λ²K.
// A holds the centres; for KL they are histograms, the means of the normalised rows.
// Progress reports Stage "restart".
func DPMeans(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	start := time.Now()
	kind, err := parseDivergence(opt.Divergence)
	if err != nil {
		return nil, err
	}
	cfg, err := learn.Check(X, opt)
	if err != nil {
		return nil, err
	}
	data, err := newBregData(X, kind)
	if err != nil {
		return nil, err
	}
	n, d := data.n, data.d
	mean, lmean := data.mean()
	lambda2, err := data.lambda2For("dpmeans", opt)
	if err != nil {
		return nil, err
	}

	best, objs, err := bestRestart(ctx, cfg, opt, 0, func() learn.RestartFunc[*dpState] {
		w := &dpWork{data: data, lambda2: lambda2, maxIter: cfg.MaxIter, mean: mean, lmean: lmean,
			states: bestOf[dpState]{cur: &dpState{}, best: &dpState{}}, perm: make([]int, n)}
		return func(_ int, rng *rand.Rand) (*dpState, float64, error) { return w.restart(ctx, rng) }
	})
	if err != nil {
		return nil, err
	}
	res := oneHotResult(best.assign, best.cent, n, d, best.k)
	return finish(res, data.objective(best, 0), lambda2, objs, best.iters, start), nil
}

// ErrTooManyClusters is DPMeansRows' answer when λ² asks for more clusters than maxK.
var ErrTooManyClusters = errors.New("DP-means would open more clusters than allowed")

// DPMeansRows is one run of DPMeans' kernel, without restarts, on the n×d rows of x
// (row-major, read only) with the squared Euclidean distance, for callers that hold their
// data as flat rows (the segmenter's pixels): from one cluster at the global mean, every
// pass visits the rows in index order, moves each to a strictly nearer centre or opens a
// cluster at it when every centre is farther than λ² = lambda2, then moves the centres to
// their means and drops empty clusters; it stops when no row moves, the objective stops
// decreasing, or after maxIter passes. It returns each row's cluster, numbered 0…K−1 in
// the order the clusters were opened, less the dropped ones.
//
// It opens at most maxK clusters (0: no limit) and returns ErrTooManyClusters when λ²
// asks for more. onPass, when not nil, receives the objective Σₙ ‖xₙ − μ_{zₙ}‖² + λ²K after
// every pass that moved rows, numbered from 1.
func DPMeansRows(ctx context.Context, x []float64, n, d int, lambda2 float64, maxIter, maxK int,
	onPass func(pass int, objective float64)) ([]int, error) {
	data := &bregData{kind: bregEuclidean, n: n, d: d, y: x}
	mean, _ := data.mean()
	w := &dpWork{data: data, lambda2: lambda2, maxIter: maxIter, maxK: maxK, mean: mean, perm: make([]int, n)}
	if onPass != nil {
		w.onPass = func(pass int, obj float64, _ int) {
			if pass > 0 {
				onPass(pass, obj)
			}
		}
	}
	st := &dpState{}
	if _, err := w.run(ctx, st, nil); err != nil {
		return nil, err
	}
	return st.assign, nil
}

// lambda2For is opt.Lambda2, or when that is 0 the farthest-first proposal for a target
// of opt.K clusters, always > 0; algo names the learner in the error when there is
// neither.
func (b *bregData) lambda2For(algo string, opt learn.Options) (float64, error) {
	if opt.Lambda2 != 0 {
		return opt.Lambda2, nil
	}
	switch {
	case opt.K == 0:
		return 0, fmt.Errorf("%s needs lambda2 > 0 or a target k", algo)
	case opt.K < 0 || opt.K > b.n:
		return 0, fmt.Errorf("target k must lie in 1…N = %d, got %d", b.n, opt.K)
	}
	mean, lmean := b.mean()
	// Fewer distinct rows than the target leave the farthest row of round K at
	// divergence 0, a λ² the learners cannot run with; the largest smaller target whose
	// round finds a row apart gives each distinct row its own cluster, and rows all alike
	// are one cluster at any λ² > 0.
	for k := opt.K; k >= 1; k-- {
		if lambda2 := b.farthestFirst(k, mean, lmean); lambda2 > 0 {
			return lambda2, nil
		}
	}
	return 1, nil
}

// mean returns the mean of the prepared rows and its floored logs (nil for euclidean).
func (b *bregData) mean() (mu, lmu []float64) {
	mu = make([]float64, b.d)
	for i := 0; i < b.n; i++ {
		for j, v := range b.y[i*b.d : (i+1)*b.d] {
			mu[j] += v
		}
	}
	for j := range mu {
		mu[j] /= float64(b.n)
	}
	if b.kind != bregEuclidean {
		lmu = make([]float64, b.d)
		floorLogs(lmu, mu)
	}
	return mu, lmu
}

// dpState is one DP-means restart's answer: K centres (K×D, row-major) with their floored
// logs (Bregman divergences other than euclidean), the assignment and the passes made.
type dpState struct {
	cent, lcent []float64
	assign      []int
	k, iters    int
}

// objective returns Σₙ d(yₙ, μ_{zₙ}) + λ²K for the state.
func (b *bregData) objective(st *dpState, lambda2 float64) float64 {
	d := b.d
	var total float64
	for i, c := range st.assign {
		y, ly := b.row(i)
		total += b.div(y, ly, st.cent[c*d:(c+1)*d], st.logs(c, d), math.Inf(1))
	}
	return total + lambda2*float64(st.k)
}

// logs returns the floored logs of centre c, or nil when the divergence needs none.
func (st *dpState) logs(c, d int) []float64 {
	if st.lcent == nil {
		return nil
	}
	return st.lcent[c*d : (c+1)*d]
}

// dpWork is one worker's scratch for DP-means restarts; like kmWork it swaps its current
// and best states so a restart reuses the memory of the one before.
type dpWork struct {
	data    *bregData
	lambda2 float64
	maxIter int
	mean    []float64
	lmean   []float64
	states  bestOf[dpState]
	maxK    int // the most clusters a pass may open (0: no limit)
	perm    []int
	count   []int
	sum     []float64
	remap   []int
	// onPass, when not nil, receives the objective Σₙ d(yₙ, μ_{zₙ}) + λ²K and K at the
	// start (pass 0) and after every pass that moved rows.
	onPass func(pass int, objective float64, k int)
}

// restart runs one DP-means restart into the worker's current state (bestOf.keep).
func (w *dpWork) restart(ctx context.Context, rng *rand.Rand) (*dpState, float64, error) {
	obj, err := w.run(ctx, w.states.cur, rng)
	if err != nil {
		return nil, 0, err
	}
	return w.states.keep(obj), obj, nil
}

// run is DP-means from one cluster at the global mean, visiting rows in a new random
// order drawn from rng at every pass, or in index order when rng is nil.
func (w *dpWork) run(ctx context.Context, st *dpState, rng *rand.Rand) (float64, error) {
	b, n := w.data, w.data.n
	st.k = 1
	st.cent = append(st.cent[:0], w.mean...)
	if w.lmean != nil {
		st.lcent = append(st.lcent[:0], w.lmean...)
	}
	st.assign = growInts(st.assign, n)
	for i := range st.assign {
		st.assign[i] = 0
	}
	for i := range w.perm {
		w.perm[i] = i
	}

	obj := b.objective(st, w.lambda2)
	if w.onPass != nil {
		w.onPass(0, obj, st.k)
	}
	iters := 0
	for iters < w.maxIter {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		iters++
		// Jiang, Kulis & Jordan (§5) permute the rows at every pass, not once: DP-means'
		// clusters depend on the order the rows are visited in.
		for i := n - 1; rng != nil && i > 0; i-- {
			j := rng.IntN(i + 1)
			w.perm[i], w.perm[j] = w.perm[j], w.perm[i]
		}
		moved, err := w.assignStep(st)
		if err != nil {
			return 0, err
		}
		if moved == 0 {
			break // no row moved: the centres are already the means of their rows
		}
		w.updateStep(st)
		next := b.objective(st, w.lambda2)
		if w.onPass != nil {
			w.onPass(iters, next, st.k)
		}
		stop := !(next < obj) // the objective stopped decreasing
		obj = next
		if stop {
			break
		}
	}
	st.iters = iters
	return obj, nil
}

// assignStep is DP-means' assignment pass: in the restart's order, each row moves to a
// strictly nearer centre than its own, or opens a new cluster at itself when every centre
// is farther than λ². Centres do not move during the pass. It returns how many rows moved,
// or ErrTooManyClusters when a row would open cluster w.maxK + 1.
func (w *dpWork) assignStep(st *dpState) (int, error) {
	b, d := w.data, w.data.d
	changed := 0
	for _, i := range w.perm {
		y, ly := b.row(i)
		cur := st.assign[i]
		bestC := cur
		bestD := b.div(y, ly, st.cent[cur*d:(cur+1)*d], st.logs(cur, d), math.Inf(1))
		for c := 0; c < st.k; c++ {
			if c == cur {
				continue
			}
			if v := b.div(y, ly, st.cent[c*d:(c+1)*d], st.logs(c, d), bestD); v < bestD {
				bestC, bestD = c, v
			}
		}
		if bestD > w.lambda2 {
			// Paying λ² for a cluster at the row itself beats every existing centre.
			if st.k == w.maxK {
				return 0, ErrTooManyClusters
			}
			bestC = st.k
			st.k++
			st.cent = append(st.cent, y...)
			if st.lcent != nil {
				st.lcent = append(st.lcent, ly...)
			}
		}
		if bestC != cur {
			st.assign[i] = bestC
			changed++
		}
	}
	return changed, nil
}

// updateStep moves every centre to the mean of its rows and drops empty clusters,
// renumbering the rest in their old order.
func (w *dpWork) updateStep(st *dpState) {
	b, n, d, k := w.data, w.data.n, w.data.d, st.k
	w.count = growInts(w.count, k)
	w.remap = growInts(w.remap, k)
	w.sum = growFloats(w.sum, k*d)
	for c := range w.count {
		w.count[c] = 0
	}
	for j := range w.sum {
		w.sum[j] = 0
	}
	for i := 0; i < n; i++ {
		c := st.assign[i]
		w.count[c]++
		s := w.sum[c*d : (c+1)*d]
		for j, v := range b.y[i*d : (i+1)*d] {
			s[j] += v
		}
	}
	st.k = meansOf(d, k, w.count, w.sum, &st.cent, &st.lcent, w.remap)
	for i, c := range st.assign {
		st.assign[i] = w.remap[c]
	}
}

// meansOf sets the centres to the means of their rows — cluster c has count[c] rows
// summing to sum[c·d:(c+1)·d] — keeping only the clusters with rows, renumbered 0…m−1 in
// their old order (remap[c] is c's new index, −1 when it had no rows), with their
// floored logs when lcent is not nil. It returns m and cuts cent and lcent to m centres.
func meansOf(d, k int, count []int, sum []float64, cent, lcent *[]float64, remap []int) int {
	m := 0
	for c := 0; c < k; c++ {
		if count[c] == 0 {
			remap[c] = -1
			continue
		}
		remap[c] = m
		inv := 1 / float64(count[c])
		cc, s := (*cent)[m*d:(m+1)*d], sum[c*d:(c+1)*d]
		for j := range cc {
			cc[j] = s[j] * inv
		}
		if *lcent != nil {
			floorLogs((*lcent)[m*d:(m+1)*d], cc)
		}
		m++
	}
	*cent = (*cent)[:m*d]
	if *lcent != nil {
		*lcent = (*lcent)[:m*d]
	}
	return m
}

// growInts returns s with length n, reusing its memory when it can.
func growInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// growFloats returns s with length n, reusing its memory when it can.
func growFloats(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
