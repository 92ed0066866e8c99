package report

import (
	"image"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/result"
)

func TestPlotNamesAndNamedPlots(t *testing.T) {
	ibp := &result.Analysis{Algorithm: algorithms.MustLookup("ibp"), Result: &learn.Result{
		K: 2, KHistogram: []int{0, 1, 3}, Alpha: 1, SigmaX: 0.1, SigmaA: 1,
		Trace: &learn.IBPTrace{K: []int{1, 2, 2, 2}, Alpha: []float64{1, 1.2, 0.9, 1}, SigmaX: []float64{1, 0.5, 0.2, 0.1},
			SigmaA: []float64{1, 1, 1, 1}, LogJoint: []float64{-50, -40, -35, -34}},
	}}
	step := &result.Analysis{Algorithm: algorithms.MustLookup("stepwise"), Result: &learn.Result{
		K: 2, Lambda2: 1, Curve: []learn.CurvePoint{{K: 1, Objective: 3, BPObjective: 4}, {K: 2, Objective: 1, BPObjective: 3}},
		RestartObjectives: []float64{1, 2},
	}}
	tests := []struct {
		name string
		a    *result.Analysis
		want []string
	}{
		{"nothing run", nil, nil},
		{"stepwise", step, []string{PlotCurve, PlotRestarts}},
		{"ibp", ibp, []string{PlotTraceK, PlotTraceHyp, PlotLogJoint, PlotKHist}},
	}
	for _, tc := range tests {
		got := PlotNames(nil, tc.a)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: plots %v, want %v", tc.name, got, tc.want)
		}
		for _, name := range got {
			pl := NamedPlot(name, nil, tc.a)
			if pl == nil {
				t.Fatalf("%s: no plot %q", tc.name, name)
			}
			img := RenderPlot(pl, 400, 300)
			if !drawsSomething(img) {
				t.Errorf("%s: plot %q is blank", tc.name, name)
			}
			if !rightEdgeClear(img, 8) {
				t.Errorf("%s: plot %q draws on its right edge (the last point's mark or label cut)", tc.name, name)
			}
			svg := filepath.Join(t.TempDir(), "p.svg")
			if err := ExportPlot(pl, svg, false); err != nil {
				t.Errorf("%s: export %q: %v", tc.name, name, err)
			} else if w, ok := svgBackgroundWidth(t, svg); !ok {
				t.Errorf("%s: the SVG of %q has no background as wide as itself (%v)", tc.name, name, w)
			}
		}
	}
}

// TestFittedObjectivesSayWhatWasFitted: a run that counted objects fitted its curve and
// restarts on the slightly blurred pictures (Analysis.Seen), so their axes say so, where
// the objective the result reports is of the pictures themselves; other runs say
// "objective".
func TestFittedObjectivesSayWhatWasFitted(t *testing.T) {
	res := &learn.Result{K: 2, Lambda2: 1, Curve: []learn.CurvePoint{{K: 1, Objective: 3, BPObjective: 4}, {K: 2, Objective: 1, BPObjective: 3}},
		RestartObjectives: []float64{1, 2}}
	plain := &result.Analysis{Algorithm: algorithms.MustLookup("stepwise"), Result: res}
	counted := &result.Analysis{Algorithm: algorithms.MustLookup("stepwise"), Result: res, Seen: mat.NewDense(2, 2, nil)}
	for _, plot := range []string{PlotCurve, PlotRestarts} {
		if got := NamedPlot(plot, nil, plain).Y.Label.Text; got != "objective" {
			t.Errorf("%s of a plain run: the objective axis says %q", plot, got)
		}
		if got := NamedPlot(plot, nil, counted).Y.Label.Text; !strings.Contains(got, "blurred") {
			t.Errorf("%s of a run that counted objects: the objective axis says %q", plot, got)
		}
	}
}

// drawsSomething reports whether the picture has coloured (not grey) pixels: the data
// lines, as the axes and text are black on white.
func drawsSomething(img image.Image) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r != g || g != bl {
				return true
			}
		}
	}
	return false
}

// svgBackgroundWidth is the width of the SVG's first filled rectangle, its background,
// and whether it spans the picture's whole width.
func svgBackgroundWidth(t *testing.T, path string) (float64, bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var width float64
	if m := regexp.MustCompile(`<svg[^>]*\bwidth="([0-9.]+)pt"`).FindSubmatch(b); m != nil {
		width, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	// gonum/plot fills the background as a path from (0,0) to the right edge and back.
	m := regexp.MustCompile(`<path d="M0,[0-9.]+L([0-9.]+),`).FindSubmatch(b)
	if m == nil {
		return 0, false
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	return w, width > 0 && math.Abs(w-width) < 0.01
}

// rightEdgeClear reports whether the last cols columns of img are all its top-right
// pixel's colour: nothing drawn there.
func rightEdgeClear(img image.Image, cols int) bool {
	b := img.Bounds()
	bg := img.At(b.Max.X-1, b.Min.Y)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Max.X - cols; x < b.Max.X; x++ {
			if img.At(x, y) != bg {
				return false
			}
		}
	}
	return true
}

// TestWholeTicks: an axis of counts is labelled at whole numbers only — 13 iterations
// got "2.50" and "7.50" from the default ticks — with 1 to 7 labels, and a range holding
// a single whole number still gets it.
func TestWholeTicks(t *testing.T) {
	for _, tc := range []struct{ lo, hi float64 }{{1, 13}, {0.4, 13.6}, {1, 2}, {1, 1}, {0.5, 1.5}, {1, 100}, {1, 1000}, {0, 123456}} {
		ticks := wholeTicks{}.Ticks(tc.lo, tc.hi)
		if len(ticks) == 0 || len(ticks) > 7 {
			t.Errorf("[%v, %v]: %d ticks %v", tc.lo, tc.hi, len(ticks), ticks)
		}
		for _, tk := range ticks {
			if tk.Value != math.Trunc(tk.Value) || tk.Label != strconv.Itoa(int(tk.Value)) {
				t.Errorf("[%v, %v]: tick %v labelled %q", tc.lo, tc.hi, tk.Value, tk.Label)
			}
		}
	}
	if ticks := (wholeTicks{}).Ticks(math.NaN(), 1); ticks != nil {
		t.Errorf("NaN range: %v", ticks)
	}
}
