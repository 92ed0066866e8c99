package app

import (
	"time"

	"featurelab/algorithms/learn"
)

// stepwiseClock estimates how long a stepwise K-features run has still to go. The run
// tries K = 1, 2, … and stops at the first K whose BP-means objective rises, that is
// the first K whose decrease of the K-features objective falls below λ² (MAD-Bayes §5).
// The decreases shrink (the paper's assumption), about geometrically on image data, so
// the ratio of the last two predicts the K it stops at; each K to come is timed as the
// last finished one, scaled by K (a restart's work grows with the number of features).
// Its methods are called under the tracker's lock.
type stepwiseClock struct {
	lambda2 float64
	maxK    int
	k       int       // the K being tried
	kStart  time.Time // when it began
	obj     []float64 // the best K-features objective of each finished K, obj[k-1]
	took    []time.Duration
}

// observe takes one progress report of the run: a K begins ("K"), or a restart at K
// ends, the last of them carrying K's best objective.
func (c *stepwiseClock) observe(ap learn.Progress, now time.Time) {
	switch ap.Stage {
	case "K":
		c.k, c.kStart, c.maxK = ap.K, now, ap.Total
	case "restart":
		if ap.K == c.k && ap.Done == ap.Total && len(c.obj) == c.k-1 {
			c.obj = append(c.obj, ap.Best)
			c.took = append(c.took, now.Sub(c.kStart))
		}
	}
}

// remaining is the estimated time left of the run at now, done of total restarts into
// the K being tried, or false while fewer than two K are finished.
func (c *stepwiseClock) remaining(now time.Time, done, total int) (time.Duration, bool) {
	m := len(c.obj)
	if m < 2 || c.lambda2 <= 0 {
		return 0, false
	}
	last := c.obj[m-2] - c.obj[m-1]
	ratio := 0.5 // with a single decrease, assume the next is half of it
	if m >= 3 {
		if prev := c.obj[m-3] - c.obj[m-2]; prev > 0 {
			ratio = min(max(last/prev, 0.05), 0.95)
		}
	}
	// K = k is tried when the decrease at k − 1 is at least λ²; the one at m is known
	// (else the run would have stopped), those after it predicted.
	dec := last
	var rest time.Duration
	if done > 0 && done < total {
		// Timed from the K's start, which the tracker's stage clock is not: its stage
		// changes name when the restarts begin.
		rest = now.Sub(c.kStart) / time.Duration(done) * time.Duration(total-done)
	}
	perK := c.took[m-1] / time.Duration(m)
	for k := m + 1; k <= c.maxK && dec >= c.lambda2; k++ {
		if k > c.k {
			rest += perK * time.Duration(k)
		}
		dec *= ratio
	}
	return rest, true
}
