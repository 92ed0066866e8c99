package jobs

import (
	"fmt"
	"math"
	"time"
)

// settleClock estimates how long a KPYP segmentation has still to go. Its iterations end
// once the share of pixels changing label in one falls to a tolerance (and no merge is
// accepted), well before the most iterations allowed. The share falls about as a power
// of the iteration, quickly at first and slowly in a long tail: a power fitted to the
// shares so far, log-log by least squares, puts the end where it reaches the tolerance,
// where a geometric fit would put it far too early. After the iterations every pixel of
// the picture is labelled, which costs about what preparing it did (reading its colours
// and texture at full size), so the time left counts the preparation's time again.
// Its methods are called under the tracker's lock.
type settleClock struct {
	tol     float64
	maxIter int
	start   time.Time   // when the segmentation began
	at      []time.Time // when each iteration ended
	changed []float64   // the share of pixels each changed
}

// observe takes the iter-th iteration's share of pixels that changed label.
func (c *settleClock) observe(iter int, changed float64, now time.Time) {
	if iter != len(c.at)+1 {
		return // reports arrive in order, one per iteration
	}
	c.at = append(c.at, now)
	c.changed = append(c.changed, changed)
}

// remaining is the estimated time left and the iteration the run is predicted to end
// at; false until two iterations have ended.
func (c *settleClock) remaining() (time.Duration, int, bool) {
	m := len(c.at)
	if m < 2 {
		return 0, 0, false
	}
	perIter := c.at[m-1].Sub(c.at[0]) / time.Duration(m-1)
	prepared := max(c.at[0].Sub(c.start)-perIter, 0) // the first iteration's end, less the iteration
	end := c.end()
	return time.Duration(end-m)*perIter + prepared, end, true
}

// end is the iteration the share of pixels changing label is predicted to fall to the
// tolerance at, from a power of the iteration fitted to the shares so far; one more than
// those done when the last is within the tolerance already (the merges have the last
// word), maxIter when the shares do not fall.
func (c *settleClock) end() int {
	m := len(c.changed)
	if c.changed[m-1] <= c.tol {
		return min(m+1, c.maxIter)
	}
	var n, sx, sy, sxx, sxy float64
	for i, ch := range c.changed {
		if ch > 0 {
			x, y := math.Log(float64(i+1)), math.Log(ch)
			n, sx, sy, sxx, sxy = n+1, sx+x, sy+y, sxx+x*x, sxy+x*y
		}
	}
	if n < 2 || n*sxx == sx*sx {
		return c.maxIter
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	if slope >= 0 {
		return c.maxIter
	}
	level := (sy - slope*sx) / n
	at := math.Exp((math.Log(c.tol) - level) / slope) // where level + slope·ln i = ln tol
	return int(min(max(math.Ceil(at), float64(m+1)), float64(c.maxIter)))
}

// UpdateSettling reports a KPYP segmentation's iter-th iteration of at most maxIter, in
// which the share changed of the pixels changed label; the iterations end once it is at
// most tol. The stage names the iteration it is predicted to end at, and the time left
// covers the iterations to come and the labelling of every pixel after them (settleClock).
func (t *Tracker) UpdateSettling(what string, iter, maxIter int, changed, tol float64) {
	if t.report == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if t.settle == nil {
		t.settle = &settleClock{tol: tol, maxIter: maxIter, start: t.start}
	}
	t.settle.observe(iter, changed, now)
	if !t.last.IsZero() && now.Sub(t.last) < progressInterval {
		return
	}
	t.last = now
	p := Progress{Stage: fmt.Sprintf("%s: iteration %d", what, iter), Done: iter, Total: maxIter, Elapsed: now.Sub(t.start), Worded: true}
	if eta, end, ok := t.settle.remaining(); ok {
		p.ETA = eta
		p.Stage = fmt.Sprintf("%s: iteration %d of about %d", what, iter, end)
	}
	t.report(p)
}
