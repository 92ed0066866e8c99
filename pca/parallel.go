package pca

import (
	"context"
	"runtime"
	"sync"
)

// workerCount resolves Options.Workers: values below 1 mean one worker per CPU.
func workerCount(w int) int {
	if w < 1 {
		return runtime.GOMAXPROCS(0)
	}
	return w
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
