package views

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/app"
)

// TestIBPCodesShadedAndMinorFeaturesFolded: after the IBP on the card deck, the
// codes table draws each image's code as squares shaded by its probability of owning
// each feature — a bit at ½ half-tone, between the empty 0 and the full 1 — the detail
// line names the unsure bits, and the Features tab folds the minor features under one
// entry whose button shows their cards and folds them again.
func TestIBPCodesShadedAndMinorFeaturesFolded(t *testing.T) {
	ui := smallUI(t)
	// The sampler alone (the gamma prior): how codes show is this test's question, not the
	// tied prior's stepwise pricing, which would be most of its time under -race.
	ui.run.picker.SetSelected(algorithms.Title("ibp"))
	ui.run.byKey["alpha-prior"].choice.SetSelected(app.AlphaGamma)
	p := runAlgorithm(t, ui, "ibp", map[string]string{"sweeps": "40", "chains": "1"})
	if p.Analysis.Options.AlphaPrior != app.AlphaGamma {
		t.Fatalf("the run's prior is %q, want gamma", p.Analysis.Options.AlphaPrior)
	}
	res := p.Analysis.Result
	n, k := res.Z.Dims()
	if k < 3 {
		t.Fatalf("the IBP found K = %d on the card deck", k)
	}
	// Probabilities chosen for the test: image 0 owns feature 1 for sure, feature 2 half
	// the time and feature 3 never.
	probs := mat.NewDense(n, k, nil)
	probs.Set(0, 0, 1)
	probs.Set(0, 1, 0.5)
	res.ZProbability = probs
	ui.codes.show(p)

	cell := newCodesCell()
	ui.codes.updateCell(widgetCell(0, colCode), cell)
	stack := cell.(*fyne.Container)
	bits := stack.Objects[2].(*codeBits)
	if !bits.Visible() || stack.Objects[1].Visible() {
		t.Fatalf("the code cell shows bits %v, text %v; want the bits alone", bits.Visible(), stack.Objects[1].Visible())
	}
	squares := test.WidgetRenderer(bits).Objects()
	if len(squares) != k {
		t.Fatalf("%d squares for K = %d", len(squares), k)
	}
	fill := func(j int) [3]uint32 {
		r, g, b, _ := squares[j].(*canvas.Rectangle).FillColor.RGBA()
		return [3]uint32{r, g, b}
	}
	sure, half, never := fill(0), fill(1), fill(2)
	if sure == half || half == never || sure == never {
		t.Errorf("squares at 1, ½ and 0 filled %v, %v, %v: not three shades", sure, half, never)
	}
	if lum := func(c [3]uint32) uint32 { return c[0] + c[1] + c[2] }; !(lum(half) > min(lum(sure), lum(never)) && lum(half) < max(lum(sure), lum(never))) {
		t.Errorf("the square at ½ (%v) is not between those at 1 (%v) and 0 (%v)", half, sure, never)
	}
	if codeWidth(p.Codes, true) < bitsWidth(k) {
		t.Errorf("the code column is %v px, narrower than %d squares", codeWidth(p.Codes, true), k)
	}
	if !strings.Contains(ui.codes.counts.Text, "shaded") {
		t.Errorf("the line above the codes %q does not say what the shades mean", ui.codes.counts.Text)
	}
	ui.codes.selectImage(0)
	if !strings.Contains(ui.codes.detailTxt.Text, "unsure of #2 (owned in 50% of the sweeps)") {
		t.Errorf("the detail line %q does not name the unsure bit", ui.codes.detailTxt.Text)
	}
	// Another learner's codes stay text.
	res.ZProbability = nil
	ui.codes.updateCell(widgetCell(0, colCode), cell)
	if bits.Visible() || stack.Objects[1].(*widget.Label).Text != p.Codes[0] {
		t.Errorf("without probabilities the code cell shows bits %v, text %q", bits.Visible(), stack.Objects[1].(*widget.Label).Text)
	}

	// The minor features: all but the two largest of the run's, folded.
	folded := *p
	folded.Minor = len(p.Features) - 2
	ui.features.show(&folded)
	fold := ui.features.minor
	if got := len(ui.features.cards.Objects); got != 2 || !fold.box.Visible() || len(fold.cards.Objects) != 0 {
		t.Fatalf("%d cards shown, fold visible %v with %d cards; want 2, true, 0", got, fold.box.Visible(), len(fold.cards.Objects))
	}
	if want := app.MinorText(folded.Minor); !strings.HasPrefix(fold.label.Text, want) {
		t.Errorf("the fold reads %q, want %q", fold.label.Text, want)
	}
	test.Tap(fold.toggle)
	if len(fold.cards.Objects) != folded.Minor || !fold.shown {
		t.Errorf("after Show them, %d minor cards, want %d", len(fold.cards.Objects), folded.Minor)
	}
	test.Tap(fold.toggle)
	if len(fold.cards.Objects) != 0 || fold.shown {
		t.Errorf("after Fold them, %d minor cards", len(fold.cards.Objects))
	}
	// A result with no minor features has no fold.
	ui.features.show(p)
	if fold.box.Visible() != (p.Minor > 0) {
		t.Errorf("the fold is visible %v with %d minor features", fold.box.Visible(), p.Minor)
	}
}
