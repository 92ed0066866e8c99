package jobs

import (
	"context"
	"runtime"
	"testing"
)

func TestManagerCancelStopsTheJob(t *testing.T) {
	jobs := NewManager(nil)
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

func TestManagerNewJobCancelsTheOldOfTheSameKind(t *testing.T) {
	jobs := NewManager(nil)
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

// TestJobsCanceledJobGivesMemoryBack: the memory a canceled job held is returned to the
// system when it ends, not left for the runtime's background scavenger.
func TestManagerCanceledJobGivesMemoryBack(t *testing.T) {
	const size = 256 << 20
	jobs := NewManager(nil)
	started := make(chan struct{})
	jobs.Start("load", func(ctx context.Context) {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i)
		}
		close(started)
		<-ctx.Done()
		runtime.KeepAlive(data)
	})
	<-started
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if held := ms.HeapSys - ms.HeapReleased; held < size {
		t.Fatalf("the job's %d bytes are not held (%d)", size, held)
	}
	jobs.Cancel("load")
	jobs.Wait()
	runtime.ReadMemStats(&ms)
	if held := ms.HeapSys - ms.HeapReleased; held > size/2 {
		t.Fatalf("after the cancel the heap still holds %d MB from the system", held>>20)
	}
}
