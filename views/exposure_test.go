package views

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"featurelab/app"
)

// TestExposureIsShown: the built-in cards, taken within −2 % and +3 % of one exposure,
// have their gains divided out by default; the Dataset tab says so, Diagnostics offers
// the gain of each picture, and a card's detail on Codes says how it was taken. Kept as
// taken (Exposure none), none of it shows.
func TestExposureIsShown(t *testing.T) {
	ui := newTestUI(t)
	ui.LoadSample("cards")
	ui.Wait()
	if w := ui.dataset.working.Text; !strings.Contains(w, "divided out before the PCA") {
		t.Errorf("the Dataset tab says %q", w)
	}
	if !slices.Contains(ui.diag.choice.Options, app.PlotExposure) {
		t.Errorf("Diagnostics offers %v", ui.diag.choice.Options)
	}
	test.Tap(ui.run.runBtn)
	ui.Wait()
	ui.codes.selectImage(0)
	if d := ui.codes.detailTxt.Text; !strings.Contains(d, "than the folder's typical picture") {
		t.Errorf("the first card's detail says %q", d)
	}
	ui.dataset.exposure.SetSelected("none")
	ui.LoadSample("cards")
	ui.Wait()
	if w := ui.dataset.working.Text; !strings.Contains(w, "kept as taken (exposure none)") {
		t.Errorf("with Exposure none the Dataset tab says %q", w)
	}
	if slices.Contains(ui.diag.choice.Options, app.PlotExposure) {
		t.Errorf("with Exposure none Diagnostics still offers %v", ui.diag.choice.Options)
	}
}
