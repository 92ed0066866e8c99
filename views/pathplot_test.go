package views

import (
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"featurelab/app"
)

// TestPathPlotLabelsAndPicks: a path of 12 K in the plot's smallest size labels the
// shown K and never puts two K labels on top of each other; a tap in an interval picks
// its K, and one in the margins picks nothing.
func TestPathPlotLabelsAndPicks(t *testing.T) {
	test.NewTempApp(t)
	var entries []app.PathEntry
	high := math.Inf(1)
	for k := 1; k <= 12; k++ {
		low := 20 / float64(k*k)
		if k == 12 {
			low = 0
		}
		entries = append(entries, app.PathEntry{K: k, Low: low, High: high})
		high = low
	}
	picked := 0
	p := newPathPlot(func(k int) { picked = k })
	p.set(entries, 11)
	p.Resize(p.MinSize())
	test.WidgetRenderer(p).Layout(p.Size())
	var ys []float32
	shown := false
	for _, o := range test.WidgetRenderer(p).Objects() {
		txt, ok := o.(*canvas.Text)
		if !ok || len(txt.Text) < 3 || txt.Text[:3] != "K =" {
			continue
		}
		y := txt.Position().Y
		for _, q := range ys {
			if math.Abs(float64(y-q)) < pathLabelGap {
				t.Errorf("label %q at y %v runs into another at %v", txt.Text, y, q)
			}
		}
		ys = append(ys, y)
		shown = shown || txt.Text == "K = 11"
	}
	if !shown || len(ys) < 3 {
		t.Errorf("%d K labels, the shown K's among them: %v", len(ys), shown)
	}
	for _, e := range []app.PathEntry{entries[2], entries[10]} {
		picked = 0
		test.TapAt(p, fyne.NewPos(p.xAt(math.Sqrt(e.Low*e.High)), 50))
		if picked != e.K {
			t.Errorf("a tap inside K = %d's interval picked %d", e.K, picked)
		}
	}
	picked = 0
	test.TapAt(p, fyne.NewPos(pathLeft/2, 50))
	test.TapAt(p, fyne.NewPos(p.Size().Width-1, 50))
	if picked != 0 {
		t.Errorf("a tap in the margin picked K = %d", picked)
	}
}
