package views

import (
	"testing"

	"fyne.io/fyne/v2"
)

// TestFitGridChoosesTheLargestArrangement: landscape photos in a tall pane stack, portrait
// faces in a wide pane stand side by side, and four landscape cells in a square pane
// make a 2×2 grid.
func TestFitGridChoosesTheLargestArrangement(t *testing.T) {
	for _, tc := range []struct {
		name   string
		aspect float64
		n      int
		pane   fyne.Size
		want   int
	}{
		{"landscape, tall pane", 1.5, 3, fyne.NewSize(400, 700), 1},
		{"portrait, wide pane", 92.0 / 112, 3, fyne.NewSize(700, 400), 3},
		{"four landscape, square pane", 1.5, 4, fyne.NewSize(600, 560), 2},
		{"no picture yet", 0, 4, fyne.NewSize(600, 560), 4},
	} {
		g := &fitGrid{aspect: func() float64 { return tc.aspect }, caption: 30}
		if got := g.columns(tc.n, tc.pane); got != tc.want {
			t.Errorf("%s: %d columns, want %d", tc.name, got, tc.want)
		}
	}
}
