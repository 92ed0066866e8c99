package pipeline

import (
	"strings"
	"testing"
	"time"

	"featurelab/algorithms/learn"
)

func TestProgress(t *testing.T) {
	tests := []struct {
		p        Progress
		fraction float64
		contains []string
	}{
		{Progress{Stage: "Loading images", Done: 25, Total: 100, Elapsed: 1500 * time.Millisecond, ETA: 4500 * time.Millisecond},
			0.25, []string{"Loading images 25/100", "1.5 s", "4.5 s left"}},
		{Progress{Stage: "K = 3, restart", Done: 90, Total: 100, Elapsed: 10 * time.Second, ETA: 30 * time.Second},
			0.25, []string{"K = 3, restart 90/100", "30s left"}}, // the job's fraction, not the stage's
		{Progress{Stage: "Loading images", Done: 25, Total: 100}, 0.25, []string{"Loading images 25/100"}},
		{Progress{Stage: "Computing PCA", Elapsed: 12 * time.Second}, -1, []string{"Computing PCA · 12s"}},
		{Progress{Stage: "x", Done: 5, Total: 4}, 1, []string{"x 5/4"}},
	}
	for _, tt := range tests {
		if got := tt.p.Fraction(); got != tt.fraction {
			t.Errorf("%+v: Fraction = %v, want %v", tt.p, got, tt.fraction)
		}
		for _, c := range tt.contains {
			if !strings.Contains(tt.p.String(), c) {
				t.Errorf("%q does not contain %q", tt.p.String(), c)
			}
		}
	}
}

// TestTrackerThrottles checks the tracker's contract with the window on a clock the test
// steps: the first report at once; within the interval nothing, stage changes
// included; after it, one report with the state of that moment.
func TestTrackerThrottles(t *testing.T) {
	var got []Progress
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	clock := tr.start
	tr.now = func() time.Time { return clock }
	for i := 0; i <= 1000; i++ {
		tr.Update("a", i, 1000)
	}
	tr.Update("b", 0, 10)
	if len(got) != 1 || got[0].Stage != "a" || got[0].Done != 0 {
		t.Fatalf("reports %+v, want only the first within the interval", got)
	}
	clock = clock.Add(progressInterval / 2)
	tr.Update("b", 4, 10)
	clock = clock.Add(progressInterval / 2)
	tr.Update("b", 5, 10)
	tr.Update("b", 6, 10)
	if len(got) != 2 || got[1].Stage != "b" || got[1].Done != 5 {
		t.Fatalf("reports %+v, want one more once the interval is up: b 5/10", got)
	}
	if got[1].ETA != progressInterval {
		t.Errorf("ETA %v: 5 of 10 done in %v since stage b began", got[1].ETA, progressInterval)
	}
}

// TestTrackerCountsTheStagesAfter: a load's time left includes the PCA that follows it;
// an early guess of it gives way to the estimate made once the images' size is known,
// even when the guess arrives late.
func TestTrackerCountsTheStagesAfter(t *testing.T) {
	var got []Progress
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	clock := tr.start
	tr.now = func() time.Time { return clock }
	step := func(done int) time.Duration {
		clock = clock.Add(time.Second)
		tr.last = time.Time{}
		tr.Update("Loading images", done, 10)
		return got[len(got)-1].ETA
	}
	tr.Update("Loading images", 0, 10)
	tr.guessAfter(20 * time.Second)
	if eta := step(1); eta != 29*time.Second {
		t.Errorf("1 of 10 in 1 s with a 20 s PCA to follow: %v left", eta)
	}
	tr.setAfter(5 * time.Second)
	tr.guessAfter(20 * time.Second) // late
	if eta := step(2); eta != 13*time.Second {
		t.Errorf("2 of 10 in 2 s with a 5 s PCA to follow: %v left", eta)
	}
}

// TestSweepsSayTheirChains: the IBP's progress counts the sweeps of all its chains, and
// says so, so that 310/4000 is not read against a Sweeps field of 1000.
func TestSweepsSayTheirChains(t *testing.T) {
	var got []Progress
	tr := NewTracker(func(p Progress) { got = append(got, p) })
	tr.algorithm("ibp", learn.Progress{Stage: "sweep", Done: 310, Total: 4000, Chains: 4})
	if len(got) != 1 || !strings.Contains(got[0].String(), "sweeps of 4 chains × 1000 310/4000") {
		t.Errorf("progress %q", got)
	}
}
