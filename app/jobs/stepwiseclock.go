package jobs

import (
	"math"
	"time"

	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
)

// stepwiseClock estimates how long a stepwise K-features run has still to go. The run
// tries K = 1, 2, … and stops at the first K whose BP-means objective rises, that is
// the first K whose decrease of the K-features objective falls below λ² (MAD-Bayes §5).
// The decreases shrink (the paper's assumption), about geometrically on image data, so
// a geometric fit to them predicts the K it stops at. Each K to come is counted at the
// time timeAt predicts for it from the K done: a K's time grows with K, steeply at
// large K, so the last K's time would undercount, and a geometric growth fitted to the
// K done overcounts many times over (docs/DESIGN.md, "Measurements behind the code").
// Its methods are called under the tracker's lock.
type stepwiseClock struct {
	lambda2 float64
	maxK    int
	k       int       // the K being tried
	kStart  time.Time // when it began
	obj     []float64 // the best K-features objective of each finished K, obj[k-1]
	took    []time.Duration
	// restarts is how many restarts each K of the forward pass has, from their reports.
	restarts int
	// shrinkK, once the path's backward pass has begun (features.ShrinkStage), is the K
	// it refits, begun at shrinkStart.
	shrinkK     int
	shrinkStart time.Time
}

// observe takes one progress report of the run: a K begins ("K"), or a restart at K
// ends, the last of them carrying K's best objective.
func (c *stepwiseClock) observe(ap learn.Progress, now time.Time) {
	switch ap.Stage {
	case "K":
		c.k, c.kStart, c.maxK = ap.K, now, ap.Total
	case features.ShrinkStage:
		c.shrinkK, c.shrinkStart = ap.K, now
	case "restart":
		c.restarts = max(c.restarts, ap.Total)
		if ap.K == c.k && ap.Done == ap.Total && len(c.obj) == c.k-1 {
			c.obj = append(c.obj, ap.Best)
			c.took = append(c.took, now.Sub(c.kStart))
		}
	}
}

// remaining is the estimated time left of the run at now, done of total restarts into
// the K being tried, and the K it is predicted to stop at; false while fewer than two K
// are finished. A path (no λ²) is followed by its backward pass (shrinkTime), counted in.
func (c *stepwiseClock) remaining(now time.Time, done, total int) (time.Duration, int, bool) {
	m := len(c.obj)
	if m < 2 {
		return 0, 0, false
	}
	if c.shrinkK > 0 {
		// The backward pass: K = shrinkK down to 1 are left, the first of them begun.
		var rest time.Duration
		for k := 1; k <= c.shrinkK; k++ {
			rest += c.shrinkTime(k)
		}
		return rest - min(now.Sub(c.shrinkStart), c.shrinkTime(c.shrinkK)), c.k, true
	}
	dec, ratio := c.decreases()
	// The run stops where a decrease falls below λ², or with no λ² (the path) below
	// features.PathFlat of the largest decrease.
	stopBelow := c.lambda2
	if stopBelow <= 0 {
		var largest float64
		for k := 1; k < m; k++ {
			largest = max(largest, c.obj[k-1]-c.obj[k])
		}
		stopBelow = features.PathFlat * largest
	}
	var rest time.Duration
	if done > 0 && done < total && c.k == m+1 {
		// Timed from the K's start, which the tracker's stage clock is not: its stage
		// changes name when the restarts begin.
		rest = now.Sub(c.kStart) / time.Duration(done) * time.Duration(total-done)
	}
	// K = k is tried when the decrease at k − 1 is at least λ²; the one at m is known
	// (else the run would have stopped), those after it predicted.
	stop := m + 1
	for k := m + 1; k <= c.maxK && dec >= stopBelow; k++ {
		stop = k
		if k > c.k {
			rest += c.timeAt(k)
		}
		dec *= ratio
	}
	if c.lambda2 <= 0 {
		for k := 1; k < stop; k++ {
			rest += c.shrinkTime(k)
		}
	}
	return rest, stop, true
}

// shrinkTime is how long the backward pass takes to refit K = k: k + 1 restarts from the
// fit of K + 1 (features' shrink), each about as long as one of K's restarts forward.
func (c *stepwiseClock) shrinkTime(k int) time.Duration {
	if c.restarts < 1 {
		return 0
	}
	var t time.Duration
	if k <= len(c.took) {
		t = c.took[k-1]
	} else {
		t = c.timeAt(k)
	}
	return t * time.Duration(k+1) / time.Duration(c.restarts)
}

// timeAt predicts how long K = k will take from the K done: a power of K fitted by least
// squares to their times, log-log, from K = 2 on (K = 1 has no search to speak of). A
// restart's work grows with K — the Z-step tries more codes, the A-step solves a larger
// system — so counting each K to come at the last K's time would undercount. The power
// is held to [0, 3]: times taken on a busy machine are noisy, and no step here costs
// more than K³.
func (c *stepwiseClock) timeAt(k int) time.Duration {
	m := len(c.took)
	var n, sx, sy, sxx, sxy float64
	for j := 2; j <= m; j++ {
		if t := c.took[j-1].Seconds(); t > 0 {
			x, y := math.Log(float64(j)), math.Log(t)
			n, sx, sy, sxx, sxy = n+1, sx+x, sy+y, sxx+x*x, sxy+x*y
		}
	}
	if n < 2 || n*sxx == sx*sx {
		return c.took[m-1]
	}
	power := min(max((n*sxy-sx*sy)/(n*sxx-sx*sx), 0), 3)
	level := (sy - power*sx) / n
	return time.Duration(math.Exp(level+power*math.Log(float64(k))) * float64(time.Second))
}

// decreases fits the decreases of the objective so far, log-linearly in K by least
// squares: single decreases are noisy, and a ratio of the last two would swing the
// predicted stop by tens of K. It returns the fitted decrease at the last K done and the
// ratio from one K to the next.
func (c *stepwiseClock) decreases() (last, ratio float64) {
	m := len(c.obj)
	var n, sk, sy, skk, sky float64
	for k := 2; k <= m; k++ {
		if d := c.obj[k-2] - c.obj[k-1]; d > 0 {
			y, x := math.Log(d), float64(k)
			n, sk, sy, skk, sky = n+1, sk+x, sy+y, skk+x*x, sky+x*y
		}
	}
	if n < 2 {
		// One decrease: assume the next halves it.
		return c.obj[m-2] - c.obj[m-1], 0.5
	}
	slope := (n*sky - sk*sy) / (n*skk - sk*sk)
	level := (sy - slope*sk) / n
	return math.Exp(level + slope*float64(m)), min(max(math.Exp(slope), 0.05), 0.95)
}
