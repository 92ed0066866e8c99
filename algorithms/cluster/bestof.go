package cluster

import (
	"context"
	"math/rand/v2"
	"time"

	"featurelab/algorithms/learn"
)

// bestRestart runs a clusterer's cfg.Restarts restarts (learn.BestOfRestarts), each
// worker running newRun's function on its own scratch, and tells opt.Progress of each
// restart's objective (Stage "restart", k clusters when K is fixed, else 0). It returns
// the best restart's state and every restart's objective.
func bestRestart[S any](ctx context.Context, cfg learn.Config, opt learn.Options, k int,
	newRun func() learn.RestartFunc[S]) (S, []float64, error) {
	prog := newProgress(opt.Progress, "restart", k)
	newWorker := func() learn.RestartFunc[S] {
		run := newRun()
		return func(r int, rng *rand.Rand) (S, float64, error) {
			st, obj, err := run(r, rng)
			if err == nil {
				prog.offer(obj)
			}
			return st, obj, err
		}
	}
	best, _, objs, err := learn.BestOfRestarts(ctx, cfg.Restarts, cfg.Workers, opt.Seed, newWorker, prog.report)
	return best, objs, err
}

// finish fills in what every clusterer reports beside its clusters: the objective, λ²
// and the objective with λ² per cluster (res.K), the restarts' objectives, the
// iterations of the best and the time since start.
func finish(res *learn.Result, objective, lambda2 float64, objs []float64, iters int, start time.Time) *learn.Result {
	res.Objective = objective
	res.BPObjective = objective + lambda2*float64(res.K)
	res.Lambda2 = lambda2
	res.RestartObjectives = objs
	res.Iterations = iters
	res.Seconds = time.Since(start).Seconds()
	return res
}

// bestOf holds a worker's two states of a restart — the current restart's and its best
// so far — and swaps them when the current one wins, so a restart allocates nothing.
type bestOf[S any] struct {
	cur, best *S
	obj       float64
	have      bool
}

// keep records the objective of the restart just run into cur and returns the state to
// hand to learn.BestOfRestarts: the new best after a swap when it improved, else cur
// (the caller keeps a candidate only when its objective is lower, so handing back the
// previous best is never needed). Restart indices reach a worker in increasing order and
// learn.BestOfRestarts keeps the lowest index on ties, so only a strictly lower objective
// replaces the best.
func (b *bestOf[S]) keep(obj float64) *S {
	if !b.have || obj < b.obj {
		b.cur, b.best = b.best, b.cur
		b.obj, b.have = obj, true
		return b.best
	}
	return b.cur
}
