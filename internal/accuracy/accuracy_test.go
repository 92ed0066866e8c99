package accuracy

import (
	"path/filepath"
	"testing"
)

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

// TestSharedDataFindsTheModulesNeighbour: the path is ../shared/data/name beside go.mod,
// whatever the test's folder, or the test is skipped.
func TestSharedDataFindsTheModulesNeighbour(t *testing.T) {
	got := SharedData(t, "tabletop")
	if !filepath.IsAbs(got) || filepath.Base(got) != "tabletop" || filepath.Base(filepath.Dir(got)) != "data" {
		t.Errorf("SharedData(tabletop) = %q", got)
	}
}
