package views

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"featurelab/app"
)

// TestStatusBarAnimatesOnlyAfterTheDelay drives the delayed animated bar with a timer
// fired by hand (under the test driver fyne.Do runs at once).
func TestStatusBarAnimatesOnlyAfterTheDelay(t *testing.T) {
	test.NewTempApp(t)
	s := newStatusBar(func() {})
	s.animateAfter = time.Second
	var fire func()
	s.after = func(_ time.Duration, f func()) *time.Timer {
		fire = f
		return time.NewTimer(time.Hour) // only ever stopped
	}
	uncounted := app.Progress{Stage: "Opening"}

	s.busy(uncounted)
	if s.infinite.Visible() {
		t.Fatal("animated at once")
	}
	fire()
	if !s.infinite.Visible() {
		t.Fatal("not animated once the delay passed")
	}
	s.idle("done")
	if s.infinite.Visible() || s.pending != nil {
		t.Fatal("still animated, or a timer pending, after the job")
	}

	// A timer that fires after its job ended shows nothing.
	s.busy(uncounted)
	stale := fire
	s.idle("done")
	stale()
	if s.infinite.Visible() {
		t.Fatal("a late timer animated an idle bar")
	}

	// Counts cancel the pending timer: the determinate bar stays.
	s.busy(uncounted)
	stale = fire
	s.busy(app.Progress{Stage: "Computing PCA", Done: 1, Total: 4})
	stale()
	if s.infinite.Visible() || !s.bar.Visible() {
		t.Fatalf("after counts: animated %v, bar %v", s.infinite.Visible(), s.bar.Visible())
	}
	s.idle("done")
}
