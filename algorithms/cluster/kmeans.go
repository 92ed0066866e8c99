package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// KMeans clusters the rows of X into K = opt.K (default 5) clusters with Lloyd's
// algorithm, keeping the best of opt.Restarts (default 100) restarts. It minimises the
// K-means objective Σₙ ‖xₙ − μ_{zₙ}‖², the small-variance limit of a Gaussian mixture
// (MAD-Bayes §2).
//
// Each restart is seeded by k-means++ (D² sampling: the first centre is a uniformly chosen
// row, every further centre a row drawn with probability proportional to its squared
// distance to the nearest centre so far). Then assignment and mean-update steps alternate
// until no row changes cluster (at most opt.MaxIter, default 1000, iterations). A row
// changes cluster only to a strictly nearer centre, so ties cannot make it cycle. A
// cluster left empty is re-seeded, deterministically, with the row farthest from its own
// centre among the rows of clusters that keep at least one other row; that lowers the
// objective, which therefore never rises.
//
// K must lie in 1…N. The result's Z is the one-hot N×K allocation, with clusters numbered
// in the order of their first row; A holds the centres. Objective is the K-means objective
// (equal to ‖X − ZA‖²_F) and BPObjective adds λ²K with λ² = opt.Lambda2. Progress
// reports Stage "restart".
func KMeans(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	start := time.Now()
	cfg, err := learn.Check(X, opt)
	if err != nil {
		return nil, err
	}
	n, d := X.Dims()
	k := opt.KOrDefault()
	if k < 1 || k > n {
		return nil, fmt.Errorf("k must lie in 1…N = %d, got %d", n, k)
	}

	x := learn.FlatRows(X)
	prog := newProgress(opt.Progress, "restart", k)
	newWorker := func() learn.RestartFunc[*kmState] {
		w := newKMWork(x, n, d, k, cfg.MaxIter)
		return func(r int, rng *rand.Rand) (*kmState, float64, error) {
			st, obj, err := w.restart(ctx, rng)
			prog.offer(obj)
			return st, obj, err
		}
	}
	best, _, objs, err := learn.BestOfRestarts(ctx, cfg.Restarts, cfg.Workers, opt.Seed, newWorker, prog.report)
	if err != nil {
		return nil, err
	}
	res := oneHotResult(best.assign, best.cent, n, d, k)
	res.Algorithm = "kmeans"
	res.Objective = sqDistSum(x, best.cent, best.assign, n, d)
	res.BPObjective = res.Objective + opt.Lambda2*float64(k)
	res.Lambda2 = opt.Lambda2
	res.RestartObjectives = objs
	res.Iterations = best.iters
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// kmState is one restart's answer: centres (K×D, row-major), assignment and iterations.
type kmState struct {
	cent   []float64
	assign []int
	iters  int
}

// kmWork is one worker's scratch for K-means restarts. It holds two states, the current
// restart's and the worker's best so far, and swaps them when the current one wins, so a
// restart allocates nothing.
type kmWork struct {
	x       []float64 // N×D data, row-major, shared read-only
	n, d, k int
	maxIter int
	states  bestOf[kmState]
	sum     []float64 // K×D sums for the mean update
	count   []int     // rows per cluster
	dist    []float64 // squared distance of every row to its centre (D² when seeding)
	traceOn bool      // record trace (tests only)
	trace   []float64 // the objective after every iteration of the last restart
}

func newKMWork(x []float64, n, d, k, maxIter int) *kmWork {
	newState := func() *kmState {
		return &kmState{cent: make([]float64, k*d), assign: make([]int, n)}
	}
	return &kmWork{
		x: x, n: n, d: d, k: k, maxIter: maxIter,
		states: bestOf[kmState]{cur: newState(), best: newState()},
		sum:    make([]float64, k*d),
		count:  make([]int, k),
		dist:   make([]float64, n),
	}
}

// restart runs one seeded Lloyd restart into the worker's current state (bestOf.keep).
func (w *kmWork) restart(ctx context.Context, rng *rand.Rand) (*kmState, float64, error) {
	st := w.states.cur
	w.seed(st, rng)
	obj, err := w.lloyd(ctx, st)
	if err != nil {
		return nil, 0, err
	}
	return w.states.keep(obj), obj, nil
}

// seed places the K initial centres by k-means++ (Arthur & Vassilvitskii 2007).
func (w *kmWork) seed(st *kmState, rng *rand.Rand) {
	n, d, x, dist := w.n, w.d, w.x, w.dist
	first := rng.IntN(n)
	copy(st.cent[:d], x[first*d:(first+1)*d])
	for i := 0; i < n; i++ {
		dist[i] = learn.SqDist(x[i*d:(i+1)*d], st.cent[:d])
	}
	for j := 1; j < w.k; j++ {
		pick := drawWeighted(rng, dist)
		if pick < 0 {
			// Every row sits on a centre already (duplicate rows): any row will do.
			pick = rng.IntN(n)
		}
		c := st.cent[j*d : (j+1)*d]
		copy(c, x[pick*d:(pick+1)*d])
		for i := 0; i < n; i++ {
			if v := learn.SqDist(x[i*d:(i+1)*d], c); v < dist[i] {
				dist[i] = v
			}
		}
	}
	for i := range st.assign {
		st.assign[i] = -1
	}
}

// drawWeighted draws an index with probability proportional to its weight (k-means++'s
// D² sampling), or returns −1 when every weight is 0.
func drawWeighted(rng *rand.Rand, weight []float64) int {
	var total float64
	for _, v := range weight {
		total += v
	}
	if !(total > 0) {
		return -1
	}
	u, acc, pick := rng.Float64()*total, 0.0, -1
	for i, v := range weight {
		if v == 0 {
			continue
		}
		pick = i // the last index with positive weight absorbs rounding at the end
		if acc += v; acc > u {
			break
		}
	}
	return pick
}

// lloyd alternates assignment and mean-update steps from the centres in st until no row
// changes cluster, and returns the objective.
func (w *kmWork) lloyd(ctx context.Context, st *kmState) (float64, error) {
	if w.traceOn {
		w.trace = w.trace[:0]
	}
	iters := 0
	for iters < w.maxIter {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if w.assignStep(st) == 0 {
			break
		}
		w.updateStep(st)
		iters++
		if w.traceOn {
			w.trace = append(w.trace, sqDistSum(w.x, st.cent, st.assign, w.n, w.d))
		}
	}
	st.iters = iters
	return sqDistSum(w.x, st.cent, st.assign, w.n, w.d), nil
}

// assignStep moves every row to its nearest centre, keeping the current one on ties, and
// returns how many rows moved. It leaves each row's squared distance in w.dist.
func (w *kmWork) assignStep(st *kmState) int {
	n, d, k, x := w.n, w.d, w.k, w.x
	changed := 0
	for i := 0; i < n; i++ {
		xi := x[i*d : (i+1)*d]
		cur := st.assign[i]
		bestC, bestD := -1, math.Inf(1)
		if cur >= 0 {
			bestC, bestD = cur, learn.SqDist(xi, st.cent[cur*d:(cur+1)*d])
		}
		for c := 0; c < k; c++ {
			if c == cur {
				continue
			}
			if v := learn.SqDistBounded(xi, st.cent[c*d:(c+1)*d], bestD); v < bestD {
				bestC, bestD = c, v
			}
		}
		if bestC != cur {
			st.assign[i] = bestC
			changed++
		}
		w.dist[i] = bestD
	}
	return changed
}

// updateStep re-seeds empty clusters and moves every centre to the mean of its rows.
func (w *kmWork) updateStep(st *kmState) {
	n, d, k, x := w.n, w.d, w.k, w.x
	for c := range w.count {
		w.count[c] = 0
	}
	for _, c := range st.assign {
		w.count[c]++
	}
	for c := 0; c < k; c++ {
		if w.count[c] > 0 {
			continue
		}
		// The farthest row whose cluster keeps another row: moving it here empties no
		// other cluster, and its term of the objective drops to zero.
		far, farD := -1, -1.0
		for i := 0; i < n; i++ {
			if w.count[st.assign[i]] > 1 && w.dist[i] > farD {
				far, farD = i, w.dist[i]
			}
		}
		w.count[st.assign[far]]--
		w.count[c] = 1
		st.assign[far] = c
		w.dist[far] = 0
	}
	sum := w.sum
	for j := range sum {
		sum[j] = 0
	}
	for i := 0; i < n; i++ {
		s := sum[st.assign[i]*d : (st.assign[i]+1)*d]
		for j, v := range x[i*d : (i+1)*d] {
			s[j] += v
		}
	}
	for c := 0; c < k; c++ {
		inv := 1 / float64(w.count[c])
		cc, s := st.cent[c*d:(c+1)*d], sum[c*d:(c+1)*d]
		for j := range cc {
			cc[j] = s[j] * inv
		}
	}
}

// sqDistSum returns Σₙ ‖xₙ − μ_{zₙ}‖², the K-means objective.
func sqDistSum(x, cent []float64, assign []int, n, d int) float64 {
	var total float64
	for i := 0; i < n; i++ {
		c := assign[i]
		total += learn.SqDist(x[i*d:(i+1)*d], cent[c*d:(c+1)*d])
	}
	return total
}

// oneHotResult builds the one-hot Z (N×K) and the centres A (K×D) of a hard clustering,
// renumbering clusters in the order of their first row so equal partitions print equally.
func oneHotResult(assign []int, cent []float64, n, d, k int) *learn.Result {
	label := make([]int, k)
	for c := range label {
		label[c] = -1
	}
	next := 0
	for _, c := range assign {
		if label[c] < 0 {
			label[c] = next
			next++
		}
	}
	Z := mat.NewDense(n, k, nil)
	for i, c := range assign {
		Z.Set(i, label[c], 1)
	}
	A := mat.NewDense(k, d, nil)
	for c := 0; c < k; c++ {
		if label[c] >= 0 {
			copy(A.RawRowView(label[c]), cent[c*d:(c+1)*d])
		}
	}
	return &learn.Result{Z: Z, A: A, K: k}
}

// progress adapts opt.Progress to learn.BestOfRestarts' counter and also reports the
// best objective seen so far, kept in an atomic so workers need no lock.
type progress struct {
	fn    func(learn.Progress)
	stage string
	k     int
	best  atomic.Uint64 // math.Float64bits of the lowest objective offered
}

func newProgress(fn func(learn.Progress), stage string, k int) *progress {
	p := &progress{fn: fn, stage: stage, k: k}
	p.best.Store(math.Float64bits(math.Inf(1)))
	return p
}

// offer records a restart's objective.
func (p *progress) offer(obj float64) {
	if p.fn == nil {
		return
	}
	for {
		old := p.best.Load()
		if !(obj < math.Float64frombits(old)) || p.best.CompareAndSwap(old, math.Float64bits(obj)) {
			return
		}
	}
}

// report is learn.BestOfRestarts' progress callback.
func (p *progress) report(done, total int) {
	if p.fn == nil {
		return
	}
	p.fn(learn.Progress{Stage: p.stage, Done: done, Total: total, K: p.k,
		Best: math.Float64frombits(p.best.Load())})
}
