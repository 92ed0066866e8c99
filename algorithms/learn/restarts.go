package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
)

// RestartRNG returns the generator of restart r of a run with the given seed. It depends
// only on (seed, r), which is what makes results independent of the number of workers.
func RestartRNG(seed uint64, r int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, restartStream(r)))
}

// restartStream is the second PCG seed word of restart r.
func restartStream(r int) uint64 { return 0x9E3779B97F4A7C15 ^ uint64(r) }

// WorkerCount resolves Options.Workers against the number of jobs.
func WorkerCount(workers, jobs int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > jobs {
		workers = jobs
	}
	if workers < 1 {
		workers = 1
	}
	return workers
}

// RestartFunc runs one restart with its own generator and returns its candidate and
// objective. Each worker gets its own RestartFunc from the factory, so scratch memory can
// live in the closure and be reused across that worker's restarts.
// The generator is RestartRNG(seed, r)'s stream but belongs to the worker: it is valid only
// during the call.
type RestartFunc[T any] func(r int, rng *rand.Rand) (T, float64, error)

// BestOfRestarts runs restarts 0..R-1 on a pool of workers and returns the candidate with
// the lowest objective (ties go to the lowest restart index), its index, and every
// restart's objective in restart order. It stops early with ctx.Err() when ctx is done.
func BestOfRestarts[T any](ctx context.Context, R, workers int, seed uint64,
	newWorker func() RestartFunc[T], progress func(done, total int)) (best T, bestIdx int, objectives []float64, err error) {
	if R < 1 {
		R = 1
	}
	objectives = make([]float64, R)
	workers = WorkerCount(workers, R)

	type local struct {
		cand T
		obj  float64
		idx  int
		err  error
	}
	results := make([]local, workers)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			run := newWorker()
			// One generator per worker, re-seeded in place for every restart: the same
			// stream as RestartRNG(seed, r), without two allocations per restart.
			pcg := rand.NewPCG(0, 0)
			rng := rand.New(pcg)
			mine := local{obj: math.Inf(1), idx: -1}
			for {
				if ctx.Err() != nil {
					break
				}
				r := int(next.Add(1) - 1)
				if r >= R {
					break
				}
				pcg.Seed(seed, restartStream(r))
				cand, obj, err := run(r, rng)
				if err != nil {
					if mine.err == nil {
						mine.err = err
					}
					break
				}
				objectives[r] = obj
				if mine.idx < 0 || obj < mine.obj || (obj == mine.obj && r < mine.idx) {
					mine.cand, mine.obj, mine.idx = cand, obj, r
				}
				if progress != nil {
					progress(int(done.Add(1)), R)
				}
			}
			results[w] = mine
		}(w)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return best, -1, objectives, err
	}
	bestIdx = -1
	bestObj := math.Inf(1)
	for _, l := range results {
		if l.err != nil {
			return best, -1, objectives, l.err
		}
		if l.idx < 0 {
			continue
		}
		if bestIdx < 0 || l.obj < bestObj || (l.obj == bestObj && l.idx < bestIdx) {
			best, bestObj, bestIdx = l.cand, l.obj, l.idx
		}
	}
	return best, bestIdx, objectives, nil
}
