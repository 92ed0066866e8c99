package main

import "testing"

// TestMedian: a cell of the table is the median wall time and peak of its runs, every K
// seen, and the failure when a run failed.
func TestMedian(t *testing.T) {
	runs := []cell{{wall: 3, rss: 300 << 20, k: 5}, {wall: 1, rss: 100 << 20, k: 5}, {wall: 2, rss: 500 << 20, k: 6}}
	if got, want := median(runs), "2.00 s, 300 MB, K = 5/6"; got != want {
		t.Errorf("median = %q, want %q", got, want)
	}
	if got, want := median(runs[:2]), "2.00 s, 200 MB, K = 5"; got != want {
		t.Errorf("median of two = %q, want %q", got, want)
	}
	runs[1].failed = "exit status 1: out of memory"
	if got, want := median(runs), "failed: exit status 1: out of memory"; got != want {
		t.Errorf("median with a failure = %q, want %q", got, want)
	}
	if got := median(nil); got != "—" {
		t.Errorf("median of no runs = %q", got)
	}
}
