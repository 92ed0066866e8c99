package accuracy

import "testing"

// TestCheckRunsWithoutTheRaceDetector: an accuracy check is skipped exactly when the
// race detector is on, so that one of make unit's two passes runs it.
func TestCheckRunsWithoutTheRaceDetector(t *testing.T) {
	ran := false
	t.Run("check", func(t *testing.T) {
		Check(t)
		ran = true
	})
	if ran == raceEnabled {
		t.Errorf("check ran %v with the race detector %v", ran, raceEnabled)
	}
}
