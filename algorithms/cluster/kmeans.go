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
	best, objs, err := bestRestart(ctx, cfg, opt, k, func() learn.RestartFunc[*kmState] {
		w := newKMWork(x, n, d, k, cfg.MaxIter)
		return func(_ int, rng *rand.Rand) (*kmState, float64, error) { return w.restart(ctx, rng) }
	})
	if err != nil {
		return nil, err
	}
	res := oneHotResult(best.assign, best.cent, n, d, k)
	return finish(res, sqDistSum(x, best.cent, best.assign, n, d), opt.Lambda2, objs, best.iters, start), nil
}

// kmState is one restart's answer: centres (K×D, row-major), assignment and iterations.
type kmState struct {
	cent   []float64
	assign []int
	iters  int
}

// kmWork is one worker's scratch for K-means restarts: the Lloyd kernel on one goroutine
// (the restarts are what runs in parallel) and two states, the current restart's and the
// worker's best so far, swapped when the current one wins, so a restart allocates nothing.
type kmWork struct {
	lloyd   *Lloyd
	x       []float64 // N×D data, row-major, shared read-only
	n, d    int
	maxIter int
	states  bestOf[kmState]
}

func newKMWork(x []float64, n, d, k, maxIter int) *kmWork {
	newState := func() *kmState {
		return &kmState{cent: make([]float64, k*d), assign: make([]int, n)}
	}
	return &kmWork{
		lloyd: NewLloyd(x, n, d, k, 1),
		x:     x, n: n, d: d, maxIter: maxIter,
		states: bestOf[kmState]{cur: newState(), best: newState()},
	}
}

// restart runs one seeded Lloyd restart into the worker's current state (bestOf.keep).
func (w *kmWork) restart(ctx context.Context, rng *rand.Rand) (*kmState, float64, error) {
	st := w.states.cur
	if err := w.lloyd.Seed(ctx, rng, st.cent, st.assign); err != nil {
		return nil, 0, err
	}
	iters, err := w.lloyd.Run(ctx, st.cent, st.assign, w.maxIter, nil)
	if err != nil {
		return nil, 0, err
	}
	st.iters = iters
	obj := sqDistSum(w.x, st.cent, st.assign, w.n, w.d)
	return w.states.keep(obj), obj, nil
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
