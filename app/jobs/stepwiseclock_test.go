package jobs

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
)

// TestStepwiseTimeLeft replays a stepwise run on a clock the test steps: K-features
// objective falling by 400, 200, 100, … and λ² = 30, so the BP-means objective rises at
// K = 6 and the run ends there. Each K takes 2 s (20 restarts), or 0.1·K² s as restarts
// grow with K. Once the K needed to time them are done (two for equal times, three for
// a growth to fit), the time left reported at each restart is the true time left within
// 10 %, and the stage names the K it will stop at; before two K, no time is given.
func TestStepwiseTimeLeft(t *testing.T) {
	for _, tc := range []struct {
		name   string
		took   func(k int) time.Duration
		timedK int
	}{
		{"equal K", func(int) time.Duration { return 2 * time.Second }, 2},
		{"K growing as K²", func(k int) time.Duration { return time.Duration(k*k) * 100 * time.Millisecond }, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Progress
			tr := NewTracker(func(p Progress) { got = append(got, p) })
			clock := tr.start
			tr.now = func() time.Time { return clock }
			tr.steps = &stepwiseClock{lambda2: 30}
			const restarts, maxK, lastK = 20, 30, 6
			var total time.Duration
			for k := 1; k <= lastK; k++ {
				total += tc.took(k)
			}
			end := clock.Add(total)
			obj := 1000.0
			for k := 1; k <= lastK; k++ {
				tr.Algorithm(algorithms.MustLookup("stepwise"), learn.Progress{Stage: "K", Done: k - 1, Total: maxK, K: k})
				if k > 1 {
					obj -= 800 / math.Pow(2, float64(k-1))
				}
				for r := 1; r <= restarts; r++ {
					clock = clock.Add(tc.took(k) / restarts)
					got = got[:0]
					tr.last = time.Time{} // every report goes out: the test is about its content
					tr.Algorithm(algorithms.MustLookup("stepwise"), learn.Progress{Stage: "restart", Done: r, Total: restarts, K: k, Best: obj})
					if len(got) != 1 || r == restarts {
						continue // the last restart of a K has no time left of its own
					}
					eta, truth := got[0].ETA, end.Sub(clock)
					switch {
					case k <= 2 && eta != 0:
						t.Errorf("K = %d, restart %d: %v left before two K are done", k, r, eta)
					case k > tc.timedK && math.Abs(eta.Seconds()-truth.Seconds()) > 0.1*truth.Seconds():
						t.Errorf("K = %d, restart %d: %v left, truly %v", k, r, eta, truth)
					case k > 2 && k < lastK && !strings.Contains(got[0].Stage, "K = "+strconv.Itoa(k)+" of about 6,"):
						t.Errorf("stage %q does not say it stops at about K = 6", got[0].Stage)
					}
				}
			}
		})
	}
}

// TestStepwisePredictsWhereORLStops: on the ORL faces' objective curve (λ² = 1.011,
// proposed for 5 features) the run stopped at K = 17. The fit to the decreases, noisy
// as they are, predicts from K = 10 on a stop at K = 16–19, not at the cap of 30 the
// ratio of the last two decreases gave.
func TestStepwisePredictsWhereORLStops(t *testing.T) {
	orl := []float64{199.11, 177.469, 155.918, 140.93, 130.912, 122.233, 115.226, 110.459,
		105.048, 101.361, 98.775, 95.097, 91.78, 90.143, 85.866, 84.322}
	for m := 10; m <= len(orl); m++ {
		c := &stepwiseClock{lambda2: 1.0107, maxK: 30, k: m + 1, obj: orl[:m]}
		for range m {
			c.took = append(c.took, time.Second)
		}
		_, stop, ok := c.remaining(c.kStart, 0, 100)
		if !ok {
			t.Fatalf("m = %d: no estimate", m)
		}
		if stop < 15 || stop > 21 {
			t.Errorf("after K = %d: predicted to stop at K = %d, it stopped at 17", m, stop)
		}
	}
}

// TestTimeLeftCoversTheReading: while a λ² path runs, the time left adds what follows it
// (Tracker.reading) for the K the path is predicted to stop at, so that the last K of the
// path does not say "0.1 s left" with the counting of the objects to come; with none
// set, it is the path's alone.
func TestTimeLeftCoversTheReading(t *testing.T) {
	for _, reading := range []func(int) time.Duration{nil, func(stop int) time.Duration { return time.Duration(stop*(stop+1)) * 50 * time.Millisecond }} {
		var got []Progress
		tr := NewTracker(func(p Progress) { got = append(got, p) })
		clock := tr.start
		tr.now = func() time.Time { return clock }
		tr.steps = &stepwiseClock{lambda2: 30}
		tr.SetReading(reading)
		obj := 1000.0
		for k := 1; k <= 4; k++ {
			tr.Algorithm(algorithms.MustLookup("stepwise"), learn.Progress{Stage: "K", Done: k - 1, Total: 30, K: k})
			obj -= 800 / math.Pow(2, float64(k))
			for r := 1; r <= 10; r++ {
				clock = clock.Add(100 * time.Millisecond)
				tr.last = time.Time{}
				tr.Algorithm(algorithms.MustLookup("stepwise"), learn.Progress{Stage: "restart", Done: r, Total: 10, K: k, Best: obj})
			}
		}
		tr.last = time.Time{}
		tr.Algorithm(algorithms.MustLookup("stepwise"), learn.Progress{Stage: "K", Done: 4, Total: 30, K: 5})
		clock = clock.Add(100 * time.Millisecond)
		tr.last = time.Time{}
		tr.Algorithm(algorithms.MustLookup("stepwise"), learn.Progress{Stage: "restart", Done: 1, Total: 10, K: 5, Best: obj})
		eta := got[len(got)-1].ETA
		_, stop, ok := tr.steps.remaining(clock, 1, 10)
		path, _, _ := tr.steps.remaining(clock, 1, 10)
		if !ok {
			t.Fatal("no prediction after four K")
		}
		want := path
		if reading != nil {
			want += reading(stop)
		}
		if eta != want || reading != nil && eta <= path {
			t.Errorf("time left %v, want the path's %v plus the reading's for K = %d: %v", eta, path, stop, want)
		}
	}
}

// TestPathTimeLeftCoversTheBackwardPass replays a λ² path (no λ² given): K-features
// objective falling by 400, 200, 100, …, so the path's decrease falls below PathFlat of
// the largest at K = 7 and the path ends there; each K takes 0.1·K² s (20 restarts).
// Then the backward pass refits K = 6 … 1, each from the fit above with K + 1 restarts
// as long as one of K's own. Once three K are timed, the time left at each restart and
// at each K refitted is the true time left of both passes within 10 %.
func TestPathTimeLeftCoversTheBackwardPass(t *testing.T) {
	var got []Progress
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	clock := tr.start
	tr.now = func() time.Time { return clock }
	tr.steps = &stepwiseClock{}
	const restarts, maxK, lastK = 20, 30, 7
	took := func(k int) time.Duration { return time.Duration(k*k) * 100 * time.Millisecond }
	back := func(k int) time.Duration { return took(k) * time.Duration(k+1) / restarts }
	var total time.Duration
	for k := 1; k <= lastK; k++ {
		total += took(k)
		if k < lastK {
			total += back(k)
		}
	}
	end := clock.Add(total)
	stepwise := algorithms.MustLookup("stepwise")
	check := func(what string, timed bool) {
		if len(got) != 1 {
			t.Fatalf("%s: %d reports", what, len(got))
		}
		eta, truth := got[0].ETA, end.Sub(clock)
		if timed && math.Abs(eta.Seconds()-truth.Seconds()) > 0.1*truth.Seconds() {
			t.Errorf("%s: %v left, truly %v", what, eta, truth)
		}
	}
	obj := 1000.0
	for k := 1; k <= lastK; k++ {
		tr.Algorithm(stepwise, learn.Progress{Stage: "K", Done: k - 1, Total: maxK, K: k})
		if k > 1 {
			obj -= 800 / math.Pow(2, float64(k-1))
		}
		for r := 1; r <= restarts; r++ {
			clock = clock.Add(took(k) / restarts)
			got = got[:0]
			tr.last = time.Time{}
			tr.Algorithm(stepwise, learn.Progress{Stage: "restart", Done: r, Total: restarts, K: k, Best: obj})
			if r < restarts {
				check(fmt.Sprintf("K = %d, restart %d", k, r), k > 3)
			}
		}
	}
	for k := lastK - 1; k >= 1; k-- {
		got = got[:0]
		tr.last = time.Time{}
		tr.Algorithm(stepwise, learn.Progress{Stage: features.ShrinkStage, Done: lastK - 1 - k, Total: lastK - 1, K: k})
		if k < lastK-1 {
			check(fmt.Sprintf("refitting K = %d", k), true)
			if !strings.Contains(got[0].Stage, features.ShrinkStage) {
				t.Errorf("stage %q", got[0].Stage)
			}
		}
		clock = clock.Add(back(k))
	}
}
