package cluster

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// CollapsedDPMeans clusters the rows of X with collapsed DP-means (MAD-Bayes Alg. 2): the
// cluster means are integrated out, and it minimises eq. (9),
//
//	Σ_k Σ_{n: z_n = k} ‖x_n − x̄_k‖² + λ²K,
//
// over K and the assignment z alone, x̄_k being the mean of the rows in cluster k (the
// paper writes the penalty as λ²(K − 1); the offset changes no minimiser). It is the
// DP-means objective of eq. (3) at the empirical means, so the two objectives agree on any
// clustering. Unlike DP-means, which moves every row against fixed centres and then
// recomputes them, a row's move updates its two clusters' means at once: a row n is taken
// out of its cluster and goes where it adds least to the objective — joining cluster k of
// m rows adds m/(m + 1)·‖x_n − x̄_k‖² — or starts a cluster of its own when every cluster
// would add more than λ². A row stays unless a move is strictly better, so the objective
// never rises and a pass with no move ends the restart.
//
// Only the squared Euclidean distance is supported, as in the paper (opt.Divergence must
// be empty or "euclidean"). λ² = opt.Lambda2, or the farthest-first proposal for a target
// of opt.K clusters when it is 0 (as DPMeans). Each restart starts from one cluster and
// visits the rows in a fresh random order every pass; the best of opt.Restarts wins.
// Objective is the within-cluster sum of squares, BPObjective adds λ²K. Progress reports
// Stage "restart".
func CollapsedDPMeans(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	start := time.Now()
	if opt.Divergence != "" && opt.Divergence != "euclidean" {
		return nil, fmt.Errorf("collapsed-dpmeans supports the euclidean divergence only (MAD-Bayes Alg. 2), got %q", opt.Divergence)
	}
	cfg, err := learn.Check(X, opt)
	if err != nil {
		return nil, err
	}
	data, err := newBregData(X, bregEuclidean)
	if err != nil {
		return nil, err
	}
	n, d := data.n, data.d
	lambda2, err := data.lambda2For("collapsed-dpmeans", opt)
	if err != nil {
		return nil, err
	}
	if err := learn.PositiveLambda2("collapsed-dpmeans", lambda2); err != nil {
		return nil, err
	}
	best, objs, err := bestRestart(ctx, cfg, opt, 0, func() learn.RestartFunc[*cdpState] {
		w := newCDPWork(data.y, n, d, lambda2, cfg.MaxIter)
		return func(_ int, rng *rand.Rand) (*cdpState, float64, error) { return w.restart(ctx, rng) }
	})
	if err != nil {
		return nil, err
	}
	k, assign := compactAssign(best.assign)
	cent := make([]float64, k*d)
	count := make([]int, k)
	for i, c := range assign {
		floats.Add(cent[c*d:(c+1)*d], data.y[i*d:(i+1)*d])
		count[c]++
	}
	for c := range count {
		floats.Scale(1/float64(count[c]), cent[c*d:(c+1)*d])
	}
	res := oneHotResult(assign, cent, n, d, k)
	return finish(res, sqDistSum(data.y, cent, assign, n, d), lambda2, objs, best.iters, start), nil
}

// cdpState is one restart's clustering: a cluster index per row (indices may have gaps
// where clusters emptied), and the passes it took.
type cdpState struct {
	assign []int
	iters  int
}

// cdpWork is one worker's scratch for collapsed DP-means: per cluster the number of rows,
// the sum of their rows and that sum's squared norm, so that a row's cost against a
// cluster is one dot product.
type cdpWork struct {
	x          []float64
	n, d       int
	lambda2    float64
	maxIter    int
	xsq        []float64
	count      []int
	sum        []float64 // cluster sums, cap×d
	sumSq      []float64
	free       []int // emptied cluster slots, reused before new ones
	perm       []int
	states     bestOf[cdpState]
	traceMoves func(obj float64) // tests: the objective after every row visited
}

func newCDPWork(x []float64, n, d int, lambda2 float64, maxIter int) *cdpWork {
	w := &cdpWork{x: x, n: n, d: d, lambda2: lambda2, maxIter: maxIter,
		xsq: make([]float64, n), perm: make([]int, n),
		states: bestOf[cdpState]{cur: &cdpState{}, best: &cdpState{}}}
	for i := range w.xsq {
		r := x[i*d : (i+1)*d]
		w.xsq[i] = floats.Dot(r, r)
	}
	return w
}

// restart runs one restart into the worker's current state (bestOf.keep).
func (w *cdpWork) restart(ctx context.Context, rng *rand.Rand) (*cdpState, float64, error) {
	obj, err := w.run(ctx, w.states.cur, rng)
	if err != nil {
		return nil, 0, err
	}
	return w.states.keep(obj), obj, nil
}

// row is row i of X.
func (w *cdpWork) row(i int) []float64 { return w.x[i*w.d : (i+1)*w.d] }

// clusterSum is cluster c's sum of rows.
func (w *cdpWork) clusterSum(c int) []float64 { return w.sum[c*w.d : (c+1)*w.d] }

// rebuild recomputes every cluster's count, sum and squared norm from the assignment, so
// rounding in the incremental updates cannot build up over passes.
func (w *cdpWork) rebuild(assign []int) {
	k := 0
	for _, c := range assign {
		k = max(k, c+1)
	}
	w.count = growInts(w.count, k)
	w.sum = growFloats(w.sum, k*w.d)
	w.sumSq = growFloats(w.sumSq, k)
	clear(w.count)
	clear(w.sum)
	for i, c := range assign {
		w.count[c]++
		floats.Add(w.clusterSum(c), w.row(i))
	}
	w.free = w.free[:0]
	for c := range w.count {
		s := w.clusterSum(c)
		w.sumSq[c] = floats.Dot(s, s)
		if w.count[c] == 0 {
			w.free = append(w.free, c)
		}
	}
}

// objective is eq. (9) with the penalty λ²K: Σ_k (Σ‖x_n‖² − ‖s_k‖²/m_k) + λ²K.
func (w *cdpWork) objective(assign []int) float64 {
	var ss float64
	for i := range assign {
		ss += w.xsq[i]
	}
	k := 0
	for c, m := range w.count {
		if m > 0 {
			ss -= w.sumSq[c] / float64(m)
			k++
		}
	}
	return max(ss, 0) + w.lambda2*float64(k)
}

// run is one restart: all rows in one cluster, then passes in a fresh random order until
// no row moves (at most maxIter passes).
func (w *cdpWork) run(ctx context.Context, st *cdpState, rng *rand.Rand) (float64, error) {
	st.assign = growInts(st.assign, w.n)
	clear(st.assign)
	for i := range w.perm {
		w.perm[i] = i
	}
	st.iters = 0
	for st.iters < w.maxIter {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		st.iters++
		w.rebuild(st.assign)
		for i := w.n - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			w.perm[i], w.perm[j] = w.perm[j], w.perm[i]
		}
		moved := 0
		for _, i := range w.perm {
			if w.visit(st.assign, i) {
				moved++
			}
			if w.traceMoves != nil {
				w.traceMoves(w.objective(st.assign))
			}
		}
		if moved == 0 {
			break
		}
	}
	w.rebuild(st.assign)
	return w.objective(st.assign), nil
}

// visit takes row i out of its cluster and puts it where it adds least to the objective,
// its own cluster unless another place is strictly better; it reports whether it moved.
func (w *cdpWork) visit(assign []int, i int) bool {
	x, xsq := w.row(i), w.xsq[i]
	old := assign[i]
	w.remove(old, x, xsq)
	// Joining cluster c of m rows with sum s adds m/(m+1)·‖x − s/m‖²
	// = (m‖x‖² − 2x·s + ‖s‖²/m)/(m + 1); a cluster of its own adds λ².
	cost := func(c int) float64 {
		m := float64(w.count[c])
		if m == 0 {
			return w.lambda2
		}
		return max(m*xsq-2*floats.Dot(x, w.clusterSum(c))+w.sumSq[c]/m, 0) / (m + 1)
	}
	stay := cost(old)
	best, bestCost := old, stay
	tol := 1e-12 * (xsq + stay)
	for c, m := range w.count {
		if m == 0 || c == old {
			continue
		}
		if v := cost(c); v < bestCost-tol {
			best, bestCost = c, v
		}
	}
	if w.count[old] > 0 && w.lambda2 < bestCost-tol {
		best = -1 // a new cluster of its own
	}
	if best == -1 {
		if len(w.free) > 0 {
			best = w.free[len(w.free)-1]
			w.free = w.free[:len(w.free)-1]
		} else {
			best = len(w.count)
			w.count = append(w.count, 0)
			w.sum = append(w.sum, make([]float64, w.d)...)
			w.sumSq = append(w.sumSq, 0)
		}
	}
	w.add(best, x, xsq)
	assign[i] = best
	return best != old
}

// remove takes x out of cluster c; an emptied cluster's slot is freed for reuse.
func (w *cdpWork) remove(c int, x []float64, xsq float64) {
	s := w.clusterSum(c)
	w.sumSq[c] += xsq - 2*floats.Dot(s, x)
	floats.Sub(s, x)
	w.count[c]--
	if w.count[c] == 0 {
		clear(s)
		w.sumSq[c] = 0
		w.free = append(w.free, c)
	}
}

// add puts x into cluster c, taking c off the free list if it was empty.
func (w *cdpWork) add(c int, x []float64, xsq float64) {
	if w.count[c] == 0 {
		for j, f := range w.free {
			if f == c {
				w.free = append(w.free[:j], w.free[j+1:]...)
				break
			}
		}
	}
	s := w.clusterSum(c)
	w.sumSq[c] += xsq + 2*floats.Dot(s, x)
	floats.Add(s, x)
	w.count[c]++
}

// compactAssign renumbers cluster indices 0…K−1 in order of first appearance.
func compactAssign(assign []int) (int, []int) {
	idx := map[int]int{}
	out := make([]int, len(assign))
	for i, c := range assign {
		j, ok := idx[c]
		if !ok {
			j = len(idx)
			idx[c] = j
		}
		out[i] = j
	}
	return len(idx), out
}
