package pca

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// workerCount resolves Options.Workers: values below 1 mean one worker per CPU.
func workerCount(w int) int {
	if w < 1 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}

// forEach calls task(worker, i) for every i in [0, n) on up to workers goroutines that
// take the next i from a shared counter, so uneven tasks balance themselves. worker is
// in [0, min(workers, n)) and lets a task use per-goroutine scratch space. Results are
// independent of the number of workers as long as each task writes only its own outputs.
func forEach(workers, n int, task func(worker, i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			task(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				task(w, i)
			}
		})
	}
	wg.Wait()
}

// blocks splits [0, n) into consecutive blocks of size (the last may be shorter) and
// returns their count; block b is [b*size, min((b+1)*size, n)).
func blocks(n, size int) int {
	return (n + size - 1) / size
}

// blockCounter counts finished blocks of work for Options.Progress; a nil counter, or
// one without a report function, counts nothing.
type blockCounter struct {
	report func(done, total int)
	total  int
	mu     sync.Mutex // one report at a time, so done only grows
	done   int
}

// add records one more finished block; safe for concurrent use.
func (c *blockCounter) add() {
	if c == nil || c.report == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done++
	c.report(c.done, c.total)
}

// canceled returns ctx's error once it is done; a nil ctx is never done.
func canceled(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return ctx.Err()
}
