package features

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// bpCandidate is the outcome of one restart, copied out of the worker's scratch.
type bpCandidate struct {
	k, iters int
	z        []uint8   // N×k
	a        []float64 // k×D
}

// candidate copies the allocation and features of st.
func (st *bpState) candidate(iters int) *bpCandidate {
	c := &bpCandidate{k: st.k, iters: iters, z: make([]uint8, st.n*st.k), a: make([]float64, st.k*st.d)}
	for i := 0; i < st.n; i++ {
		copy(c.z[i*st.k:(i+1)*st.k], st.zrow(i))
	}
	copy(c.a, st.a[:st.k*st.d])
	return c
}

// bpRunner is one worker's scratch of a penalised learner (BP-means or collapsed BP-means):
// run does one restart on it, and state is the allocation the restart left.
type bpRunner interface {
	run(ctx context.Context, lambda2 float64, maxIter int, rng *rand.Rand, trace *[]float64) (int, error)
	state() *bpState
}

// runPenalised is the body the penalised learners share: it checks the input (λ² must be
// > 0; 0 runs penalisedPath), runs the restarts, each worker on a runner from newRunner, and returns the best
// restart's Result as learner algo's.
func runPenalised(ctx context.Context, algo string, X *mat.Dense, opt learn.Options,
	newRunner func(x []float64, n, d int) bpRunner) (*learn.Result, error) {
	start := time.Now()
	if opt.Lambda2 == 0 {
		return penalisedPath(ctx, algo, X, opt, newRunner)
	}
	if err := learn.PositiveLambda2(algo, opt.Lambda2); err != nil {
		return nil, err
	}
	cfg, err := learn.Check(X, opt)
	if err != nil {
		return nil, err
	}
	n, d := X.Dims()
	x := learn.FlatRows(X)
	newWorker := func() bpRestart {
		w := newRunner(x, n, d)
		return func(rng *rand.Rand) (*bpState, int, error) {
			iters, err := w.run(ctx, opt.Lambda2, cfg.MaxIter, rng, nil)
			return w.state(), iters, err
		}
	}
	res, err := bpRestarts(ctx, X, cfg, opt.Lambda2, opt.Progress, newWorker)
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// bpRestart runs one restart on a worker's scratch and returns the final state and the
// number of iterations.
type bpRestart func(rng *rand.Rand) (st *bpState, iters int, err error)

// bpRestarts runs cfg.Restarts restarts of a BP-means learner with learn.BestOfRestarts and
// builds the Result of the best one (Algorithm and Seconds are the caller's).
//
// A restart's allocation is copied out of the worker's scratch only when it beats that
// worker's earlier restarts: learn.BestOfRestarts hands each worker its restarts in increasing
// order and keeps a worker's earlier candidate on ties, so a restart that does not beat
// them is never chosen and needs no copy.
func bpRestarts(ctx context.Context, X *mat.Dense, cfg learn.Config, lambda2 float64, progress func(learn.Progress),
	newWorker func() bpRestart) (*learn.Result, error) {
	var best atomic.Uint64 // float64 bits of the best objective so far, for the progress reports
	best.Store(math.Float64bits(math.Inf(1)))
	factory := func() learn.RestartFunc[*bpCandidate] {
		run := newWorker()
		mine := math.Inf(1)
		return func(_ int, rng *rand.Rand) (*bpCandidate, float64, error) {
			st, iters, err := run(rng)
			if err != nil {
				return nil, 0, err
			}
			obj := bpObjective(st.rss, lambda2, st.k)
			if math.IsNaN(obj) {
				return nil, 0, errors.New("objective is NaN: the data overflow float64")
			}
			if !(obj < mine) {
				return nil, obj, nil
			}
			mine = obj
			for {
				old := best.Load()
				if obj >= math.Float64frombits(old) || best.CompareAndSwap(old, math.Float64bits(obj)) {
					break
				}
			}
			return st.candidate(iters), obj, nil
		}
	}
	var report func(done, total int)
	if progress != nil {
		report = func(done, total int) {
			progress(learn.Progress{Stage: "restart", Done: done, Total: total,
				Best: math.Float64frombits(best.Load())})
		}
	}
	cand, _, objectives, err := learn.BestOfRestarts(ctx, cfg.Restarts, cfg.Workers, cfg.Seed, factory, report)
	if err != nil {
		return nil, err
	}
	if cand == nil || cand.k < 1 {
		return nil, errors.New("no restart left a feature") // cannot happen: K ≥ 1 is kept
	}
	return cand.result(X, lambda2, objectives)
}

// result turns the candidate into a Result. A is recomputed from Z with the
// A-step, so every learner's A comes from the same solve; Objective from learn.ResidualSS.
func (c *bpCandidate) result(X *mat.Dense, lambda2 float64, objectives []float64) (*learn.Result, error) {
	n, d := X.Dims()
	Z := mat.NewDense(n, c.k, nil)
	for i := 0; i < n; i++ {
		row := Z.RawRowView(i)
		for j, v := range c.z[i*c.k : (i+1)*c.k] {
			row[j] = float64(v)
		}
	}
	A := mat.NewDense(c.k, d, nil)
	if err := aStep(A, Z, X, nil); err != nil {
		return nil, fmt.Errorf("final A-step: %w", err)
	}
	rss := learn.ResidualSS(X, Z, A)
	return &learn.Result{
		Z: Z, A: A, K: c.k,
		Objective:         rss,
		BPObjective:       bpObjective(rss, lambda2, c.k),
		RestartObjectives: objectives,
		Iterations:        c.iters,
		Lambda2:           lambda2,
	}, nil
}
