package jobs

import (
	"context"
	"runtime/debug"
	"sync"
)

// Runner starts background work. The window uses a Runner that runs each job on a new
// goroutine; tests inject one they can wait on.
type Runner func(job func())

// GoRunner runs every job on its own goroutine.
func GoRunner(job func()) { go job() }

// Manager runs at most one background job per kind ("load", "run", "segment") and lets the
// user cancel it. Starting a job of a kind cancels the one before it.
type Manager struct {
	run     Runner
	mu      sync.Mutex
	cancels map[string]*job
	wg      sync.WaitGroup
}

type job struct{ cancel context.CancelFunc }

// NewManager returns a job table that starts work with run (GoRunner when nil).
func NewManager(run Runner) *Manager {
	if run == nil {
		run = GoRunner
	}
	return &Manager{run: run, cancels: map[string]*job{}}
}

// Start cancels any running job of the same kind and starts work with a fresh context.
func (j *Manager) Start(kind string, work func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	this := &job{cancel: cancel}
	j.mu.Lock()
	if old := j.cancels[kind]; old != nil {
		old.cancel()
	}
	j.cancels[kind] = this
	j.mu.Unlock()
	j.wg.Add(1)
	j.run(func() {
		defer j.wg.Done()
		defer func() {
			j.mu.Lock()
			cancel()
			// Only forget the job if a newer one has not replaced it.
			if j.cancels[kind] == this {
				delete(j.cancels, kind)
			}
			j.mu.Unlock()
		}()
		work(ctx)
		if ctx.Err() != nil {
			// A canceled load or run leaves its data matrix and PCA to the collector;
			// give the memory back to the system now rather than minutes later, so a
			// user who cancels a folder that was too big sees it go.
			debug.FreeOSMemory()
		}
	})
}

// Cancel stops the running job of a kind, if any.
func (j *Manager) Cancel(kind string) {
	j.mu.Lock()
	if c := j.cancels[kind]; c != nil {
		c.cancel()
	}
	j.mu.Unlock()
}

// Running reports whether a job of the kind is in progress.
func (j *Manager) Running(kind string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.cancels[kind] != nil
}

// Wait blocks until every job started so far has finished.
func (j *Manager) Wait() { j.wg.Wait() }
