package jobs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"featurelab/algorithms/learn"
)

// chainClock follows the IBP's chains — run a few at a time, as many as there are
// workers — and estimates the time left of them all. Counting the sweeps of all the
// chains at the average rate so far would be far too hopeful: a sweep's cost grows with
// the features the chain holds, so the first sweeps are the cheapest, and the chains
// still to start pay them again. Here a
// running chain's sweeps still to go are counted at its recent rate; a chain not yet
// started takes as long as the leading chain's whole run so far and to come; and the
// chains waiting are laid onto the workers as they free.
// Its methods are called under the tracker's lock.
type chainClock struct {
	sweeps int // of each chain
	chains []chainTimes
	// concurrent is the most chains seen running at once: the workers they share.
	concurrent int
}

// chainTimes is one chain's timeline: when it began and when it reached sweeps at about
// every checkpointEvery sweeps.
type chainTimes struct {
	began  time.Time
	sweeps int
	at     []time.Time // at[i] is when sweep (i+1)·every was done
	last   time.Time   // when the last sweep reported was done
	every  int
}

// checkpoints per chain the clock keeps: a rate needs a few recent points, not every
// sweep of a million.
const checkpoints = 200

// The recent rate of a chain is measured over the later half of the sweeps it has done,
// and at least recentShare of a chain's sweeps: long enough that a busy moment of a
// shared machine does not swing it, short enough to follow the growth of a sweep's cost
// with K.
const recentShare = 0.05

// observe takes one sweep's report.
func (c *chainClock) observe(ap learn.Progress, now time.Time) {
	if ap.Chains <= 0 || ap.Chain < 1 || ap.Chain > ap.Chains {
		return
	}
	if c.chains == nil {
		c.sweeps = ap.Total / ap.Chains
		c.chains = make([]chainTimes, ap.Chains)
	}
	ch := &c.chains[ap.Chain-1]
	first := ch.sweeps == 0
	if first {
		// Its first sweep is done: it began about a sweep ago (now, to a sweep).
		ch.began = now
		ch.every = max(1, c.sweeps/checkpoints)
	}
	ch.sweeps, ch.last = ap.Sweep, now
	if first {
		c.concurrent = max(c.concurrent, c.running())
	}
	if ap.Sweep%ch.every == 0 {
		ch.at = append(ch.at, now)
	}
}

// running is the number of chains started and not finished.
func (c *chainClock) running() int {
	n := 0
	for _, ch := range c.chains {
		if ch.sweeps > 0 && ch.sweeps < c.sweeps {
			n++
		}
	}
	return n
}

// rate is a chain's recent time per sweep; 0 before it has a checkpoint.
func (ch *chainTimes) rate(sweeps int) time.Duration {
	if len(ch.at) == 0 {
		return 0
	}
	back := max(1, int(recentShare*float64(sweeps))/ch.every, len(ch.at)/2)
	i := len(ch.at) - 1 - back
	from, fromSweep := ch.began, 0
	if i >= 0 {
		from, fromSweep = ch.at[i], (i+1)*ch.every
	}
	if done := ch.sweeps - fromSweep; done > 0 {
		return ch.last.Sub(from) / time.Duration(done)
	}
	return 0
}

// reached is how long after it began the chain reached sweep s (at its checkpoint at or
// before s); false if it has not.
func (ch *chainTimes) reached(s int) (time.Duration, bool) {
	if s > ch.sweeps || ch.every == 0 {
		return 0, false
	}
	if s == ch.sweeps {
		return ch.last.Sub(ch.began), true
	}
	if i := s/ch.every - 1; i >= 0 && i < len(ch.at) {
		return ch.at[i].Sub(ch.began), true
	}
	return 0, s < ch.every // before its first checkpoint: about at its start
}

// remaining is the estimated time left of all the chains at now; false until a chain
// has a rate. The chain furthest on — a finished one when there is one — is the
// reference: a chain behind it is expected to take what the reference took from the
// same sweep to its end, scaled by how its pace compares so far (the chains that start
// after the first ones end begin with the cheap sweeps again), its pace trusted as its
// sweeps add up; the reference itself goes
// on at its recent rate; a chain not started takes the reference's whole run.
func (c *chainClock) remaining(now time.Time) (time.Duration, bool) {
	ref := -1
	for i := range c.chains {
		if ch := &c.chains[i]; ch.sweeps > 0 && (ref < 0 || ch.sweeps > c.chains[ref].sweeps) {
			ref = i
		}
	}
	if ref < 0 {
		return 0, false
	}
	r := &c.chains[ref]
	whole := r.last.Sub(r.began)
	if r.sweeps < c.sweeps {
		rate := r.rate(c.sweeps)
		if rate <= 0 {
			return 0, false
		}
		whole += time.Duration(c.sweeps-r.sweeps) * rate
	}
	var slots []time.Duration // each running chain's time left, then the free workers'
	waiting := 0
	for i := range c.chains {
		ch := &c.chains[i]
		switch {
		case ch.sweeps == 0:
			waiting++
		case ch.sweeps < c.sweeps:
			left := whole - ch.last.Sub(ch.began) // the reference's own
			if i != ref {
				at, _ := r.reached(ch.sweeps)
				pace := 1.0
				// Its own figures count in full from a quarter of its sweeps on: its
				// first few dozen, which a busy machine or a K slow to settle can slow
				// several times over, would make the estimate far too long.
				trust := min(1, 4*float64(ch.sweeps)/float64(c.sweeps))
				if at > 0 {
					pace = 1 + trust*(float64(ch.last.Sub(ch.began))/float64(at)-1)
				}
				left = time.Duration(float64(whole-at) * pace)
				// Then half of it from its own recent rate, which a change of the
				// machine's load since the reference ran does not mislead, as the
				// reference's pace alone would on a shared machine.
				if rate := ch.rate(c.sweeps); rate > 0 {
					own := time.Duration(c.sweeps-ch.sweeps) * rate
					left += time.Duration(trust / 2 * float64(own-left))
				}
			}
			// The time since its last report counts as begun on the next sweep.
			slots = append(slots, max(left-now.Sub(ch.last), 0))
		}
	}
	for len(slots) < max(c.concurrent, 1) {
		slots = append(slots, 0)
	}
	for ; waiting > 0; waiting-- {
		i := slices.Index(slots, slices.Min(slots))
		slots[i] += whole
	}
	return slices.Max(slots), true
}

// stage words the sweeps for the status line: "chain 2 of 4, sweep 310 of 1000", or
// with chains running side by side "chains 1–2 of 4, sweep 310 of 1000", the sweep of the
// one furthest behind.
func (c *chainClock) stage() string {
	var running []string
	first, behind := 0, c.sweeps
	for i, ch := range c.chains {
		if ch.sweeps > 0 && ch.sweeps < c.sweeps {
			if first == 0 {
				first = i + 1
			}
			running = append(running, fmt.Sprint(i+1))
			behind = min(behind, ch.sweeps)
		}
	}
	switch {
	case len(running) == 0:
		return fmt.Sprintf("%d chains of %d sweeps", len(c.chains), c.sweeps)
	case len(c.chains) == 1:
		return fmt.Sprintf("sweep %d of %d", behind, c.sweeps)
	case len(running) == 1:
		return fmt.Sprintf("chain %s of %d, sweep %d of %d", running[0], len(c.chains), behind, c.sweeps)
	case running[len(running)-1] == fmt.Sprint(first+len(running)-1):
		return fmt.Sprintf("chains %d–%s of %d, sweep %d of %d", first, running[len(running)-1], len(c.chains), behind, c.sweeps)
	}
	return fmt.Sprintf("chains %s of %d, sweep %d of %d", strings.Join(running, ", "), len(c.chains), behind, c.sweeps)
}
