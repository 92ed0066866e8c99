//go:build !race

package accuracy

// raceEnabled says the race detector is on (the race build tag).
const raceEnabled = false
