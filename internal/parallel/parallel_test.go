package parallel

import (
	"sync/atomic"
	"testing"
)

// TestForEveryIndexOnce checks that every index runs exactly once and that worker ids
// stay below min(workers, n), for serial, parallel and more-workers-than-tasks cases.
func TestForEveryIndexOnce(t *testing.T) {
	for _, tc := range []struct{ workers, n int }{{1, 10}, {4, 1000}, {8, 3}, {0, 5}, {3, 0}} {
		hits := make([]atomic.Int32, tc.n)
		var bad atomic.Bool
		For(tc.workers, tc.n, func(w, i int) {
			if w < 0 || w >= max(1, min(tc.workers, tc.n)) {
				bad.Store(true)
			}
			hits[i].Add(1)
		})
		if bad.Load() {
			t.Errorf("workers=%d n=%d: worker id out of range", tc.workers, tc.n)
		}
		for i := range hits {
			if h := hits[i].Load(); h != 1 {
				t.Errorf("workers=%d n=%d: index %d ran %d times", tc.workers, tc.n, i, h)
			}
		}
	}
}
