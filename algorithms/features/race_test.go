//go:build race

package features

// kfRaceEnabled is set when the tests run under the race detector, which allocates of
// its own: the allocation counts are checked in the pass without it.
const kfRaceEnabled = true
