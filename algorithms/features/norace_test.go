//go:build !race

package features

// kfRaceEnabled is set when the tests run under the race detector, which makes the
// 1000-restart real-data tests too slow for the package's time budget.
const kfRaceEnabled = false
