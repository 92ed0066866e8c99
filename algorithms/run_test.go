package algorithms

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/cluster"
	"featurelab/algorithms/learn"
)

func TestNames(t *testing.T) {
	want := []string{"stepwise", "kfeatures", "bpmeans", "collapsed", "ibp", "kmeans", "dpmeans", "collapsed-dpmeans", "hardhdp"}
	got := Names()
	if !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	got[0] = "changed"
	if Names()[0] != "stepwise" {
		t.Error("Names returns the package's own slice")
	}
}

func TestRunDispatch(t *testing.T) {
	X := threeBlobs()
	opt := learn.Options{K: 3, Lambda2: 20, Restarts: 3, MaxK: 4, Sweeps: 5, Seed: 1}
	ctx := context.Background()
	for _, name := range Names() {
		res, err := MustLookup(name).Run(ctx, X, opt)
		// Other learners' own tests judge their answers; here only the routing counts.
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "algo must be one of") {
				t.Errorf("%s: not routed: %v", name, err)
			}
			continue
		}
		if res.Algorithm != name {
			t.Errorf("Run(%q) ran %q", name, res.Algorithm)
		}
	}
	// Run is the learner: same options, same answer.
	for name, fn := range map[string]learn.LearnFunc{"kmeans": cluster.KMeans, "dpmeans": cluster.DPMeans} {
		a, err := MustLookup(name).Run(ctx, X, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fn(ctx, X, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(a.Z, b.Z) || a.BPObjective != b.BPObjective {
			t.Errorf("Run(%q) differs from calling the learner", name)
		}
	}
}

// TestEveryLearnerCancels checks that every learner stops with ctx.Err() when its context
// is cancelled: before it starts, and in the middle of a run far too long to finish, where
// at most one more report per worker may follow the cancel.
func TestEveryLearnerCancels(t *testing.T) {
	X := threeBlobs()
	const workers = 2
	for _, name := range Names() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		opt := learn.Options{K: 3, Lambda2: 20, MaxK: 4, Seed: 1}
		if _, err := MustLookup(name).Run(ctx, X, opt); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled before the start: err = %v", name, err)
		}

		ctx, cancel = context.WithCancel(context.Background())
		// Reports are counted from when cancel has returned: until then another worker
		// may still see the context live, and on a loaded machine (make test runs the
		// packages side by side) the canceller can be descheduled inside cancel while
		// that worker runs a hundred quick restarts.
		var reports, atCancel atomic.Int64
		atCancel.Store(math.MaxInt64)
		opt.Restarts, opt.Sweeps, opt.Workers = 1_000_000, 1_000_000, workers
		opt.Progress = func(learn.Progress) {
			if reports.Add(1) == 3 {
				cancel()
				atCancel.Store(reports.Load())
			}
		}
		_, err := MustLookup(name).Run(ctx, X, opt)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled during the run: err = %v", name, err)
		}
		if n, at := reports.Load(), atCancel.Load(); n > at+workers {
			t.Errorf("%s: %d progress reports, %d after the cancel returned", name, n, n-at)
		}
	}
}

// TestEveryLearnerChecksItsInput runs every learner on the inputs that learn.Check
// rejects and expects its message, never a result: the checks are one place for all.
func TestEveryLearnerChecksItsInput(t *testing.T) {
	good := threeBlobs()
	nan := mat.DenseCopyOf(good)
	nan.Set(4, 2, math.NaN())
	inf := mat.DenseCopyOf(good)
	inf.Set(0, 1, math.Inf(1))
	base := learn.Options{K: 2, Lambda2: 20}
	with := func(f func(*learn.Options)) learn.Options { o := base; f(&o); return o }
	for _, tc := range []struct {
		name string
		X    *mat.Dense
		opt  learn.Options
		want string
	}{
		{"nil X", nil, base, "X is empty"},
		{"empty X", &mat.Dense{}, base, "X is empty"},
		{"NaN", nan, base, "X has NaN at row 4, column 2"},
		{"Inf", inf, base, "X has +Inf at row 0, column 1"},
		{"workers", good, with(func(o *learn.Options) { o.Workers = -1 }), "workers must be ≥ 0, got -1"},
		{"lambda2", good, with(func(o *learn.Options) { o.Lambda2 = math.Inf(1) }), "lambda2 must be"},
	} {
		for _, name := range Names() {
			res, err := MustLookup(name).Run(context.Background(), tc.X, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, %s: err = %v, want one containing %q", name, tc.name, err, tc.want)
			}
			if res != nil {
				t.Errorf("%s, %s: a result with the error", name, tc.name)
			}
		}
	}
}

func TestRunUnknown(t *testing.T) {
	_, err := Lookup("kmedoids")
	if err == nil {
		t.Fatal("no error for an unknown algorithm")
	}
	for _, want := range append([]string{`"kmedoids"`}, Names()...) {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

// threeBlobs is 18 points in 3 dimensions, six around each of three far-apart centres,
// with small fixed offsets: data every learner runs on quickly.
func threeBlobs() *mat.Dense {
	X := mat.NewDense(18, 3, nil)
	for i := 0; i < 18; i++ {
		c := float64(i % 3)
		off := 0.1 * float64(i/3-2)
		X.SetRow(i, []float64{10*c + off, -off, 5*c*c + off})
	}
	return X
}
