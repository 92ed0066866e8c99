package app

import (
	"context"
	"testing"
)

func TestJobsCancelStopsTheJob(t *testing.T) {
	jobs := NewJobs(nil)
	started := make(chan struct{})
	var err error
	jobs.Start("run", func(ctx context.Context) {
		close(started)
		<-ctx.Done()
		err = ctx.Err()
	})
	<-started
	if !jobs.Running("run") {
		t.Fatal("job should be running")
	}
	jobs.Cancel("run")
	jobs.Wait()
	if err != context.Canceled {
		t.Fatalf("job saw %v, want context.Canceled", err)
	}
	if jobs.Running("run") {
		t.Fatal("job still listed after it ended")
	}
}

func TestJobsNewJobCancelsTheOldOfTheSameKind(t *testing.T) {
	jobs := NewJobs(nil)
	first := make(chan struct{})
	var firstErr error
	jobs.Start("load", func(ctx context.Context) {
		close(first)
		<-ctx.Done()
		firstErr = ctx.Err()
	})
	<-first
	release := make(chan struct{})
	jobs.Start("load", func(ctx context.Context) { <-release })
	other := make(chan struct{})
	jobs.Start("run", func(ctx context.Context) { close(other) })
	<-other
	close(release)
	jobs.Wait()
	if firstErr != context.Canceled {
		t.Fatalf("first job saw %v, want context.Canceled", firstErr)
	}
	if jobs.Running("load") || jobs.Running("run") {
		t.Fatal("jobs still listed after they ended")
	}
}
