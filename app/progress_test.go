package app

import (
	"strings"
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	tests := []struct {
		p        Progress
		fraction float64
		contains []string
	}{
		{Progress{Stage: "Loading images", Done: 25, Total: 100, Elapsed: 1500 * time.Millisecond, ETA: 4 * time.Second},
			0.25, []string{"Loading images 25/100", "1.5 s", "4.0 s left"}},
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

func TestTrackerThrottlesButKeepsStageChangesAndTheEnd(t *testing.T) {
	var got []Progress
	tr := newTracker(func(p Progress) { got = append(got, p) })
	for i := 0; i <= 1000; i++ {
		tr.update("a", i, 1000)
	}
	tr.update("b", 0, 0)
	if len(got) > 20 {
		t.Fatalf("%d reports for a fast loop; throttling failed", len(got))
	}
	if last := got[len(got)-2]; last.Stage != "a" || last.Done != 1000 {
		t.Fatalf("the final count of stage a was not reported: %+v", last)
	}
	if got[len(got)-1].Stage != "b" {
		t.Fatal("a stage change was throttled away")
	}
}
