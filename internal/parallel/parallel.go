package parallel

import (
	"sync"
	"sync/atomic"
)

// For calls task(worker, i) for every i in [0, n) on up to workers goroutines that take
// the next i from a shared counter. worker lies in [0, min(workers, n)) and lets a task
// use per-goroutine scratch space. With workers ≤ 1 (or n ≤ 1) it runs the tasks in
// order on the calling goroutine. Results are independent of the number of workers as
// long as each task writes only its own outputs.
func For(workers, n int, task func(worker, i int)) {
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
