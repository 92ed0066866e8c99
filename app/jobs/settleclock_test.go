package jobs

import (
	"strings"
	"testing"
	"time"
)

// TestSegmentationTimeLeftIsHonest replays two KPYP runs on a clock the test steps: the
// shares of pixels changing label of BSDS500 photos 100098 (23 iterations, a long
// tail) and 100080 (8), each iteration 0.2 s, with 1.5 s of preparation before the
// first and 1.5 s of labelling after the last, as on a 1924×1284 frame. From the second
// iteration on, the time left is never under half the truth nor over four times it (3.2×
// for 100080 at its 5th iteration: its shares fall abruptly at the 6th);
// before, none is given. The stage names the iteration the run should end at.
func TestSegmentationTimeLeftIsHonest(t *testing.T) {
	for name, shares := range map[string][]float64{
		"100098": {0.3159, 0.1414, 0.0685, 0.0439, 0.0396, 0.0424, 0.0185, 0.0144, 0.0122, 0.0103, 0.0092, 0.0082,
			0.0077, 0.0052, 0.0060, 0.0096, 0.0068, 0.0064, 0.0060, 0.0065, 0.0065, 0.0054, 0.0035},
		"100080": {0.3952, 0.1338, 0.1020, 0.0637, 0.0496, 0.0111, 0.0040, 0.0037},
	} {
		var got []Progress
		tr := NewTracker(func(p Progress) { got = append(got, p) })
		clock := tr.start
		tr.now = func() time.Time { return clock }
		const prep, iter = 1500 * time.Millisecond, 200 * time.Millisecond
		end := clock.Add(prep + time.Duration(len(shares))*iter + prep)
		clock = clock.Add(prep)
		for i, ch := range shares {
			clock = clock.Add(iter)
			got = got[:0]
			tr.last = time.Time{} // every report goes out: the test is about its content
			tr.UpdateSettling("Segmenting", i+1, 100, ch, 5e-3)
			p := got[0]
			truth := end.Sub(clock)
			switch {
			case i == 0 && p.ETA != 0:
				t.Errorf("%s: %v left after one iteration", name, p.ETA)
			case i > 0 && (p.ETA < truth/2 || p.ETA > 4*truth):
				t.Errorf("%s, iteration %d: %v left, truly %v", name, i+1, p.ETA, truth)
			case i > 0 && !strings.Contains(p.Stage, "of about "):
				t.Errorf("%s, iteration %d: stage %q", name, i+1, p.Stage)
			}
		}
	}
}
