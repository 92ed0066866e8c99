// Package accuracy tells the two kinds of test apart. Unit and window tests run under
// the race detector on small fixtures; accuracy checks — real data sets, generated
// folders of scenes, long restarts and sweeps, the window on a generated folder of a
// thousand pictures, crafted saved analyses drawn whole (a fuzz target's seeds) — check
// what the algorithms find and the window shows at scale, which the race detector only
// makes slower, so they run in `make unit`'s second pass, without it
// (scripts/accuracytests lists them). Every test runs in one of the two passes.
package accuracy

import "testing"

// Check marks t as an accuracy check: under the race detector it is skipped, as the
// second pass of `make unit` runs it at full speed.
func Check(t testing.TB) {
	t.Helper()
	if raceEnabled {
		t.Skip("accuracy check: runs in make unit's pass without the race detector")
	}
}
