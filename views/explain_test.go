package views

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"featurelab/algorithms"
)

// TestEveryFigureExplainsItself: beside each line of figures — the data set's PCA
// components, a result's objective, λ², path, shares, stability and on/off, the codes'
// residuals, the comparison's Rand index, each diagnostics plot — an info mark says what
// each is and which way is better; tapped, it shows that in a tip inside the window,
// which Esc closes. The K-means header speaks of clusters, not of features alone.
func TestEveryFigureExplainsItself(t *testing.T) {
	ui := smallUI(t)
	ui.win.Resize(fyne.NewSize(1024, 700))
	says := func(what string, m *infoMark, want ...string) {
		t.Helper()
		if !m.Visible() {
			t.Errorf("%s: no info mark", what)
		}
		for _, w := range want {
			if !strings.Contains(m.text(), w) {
				t.Errorf("%s: the info mark does not explain %q: %q", what, w, m.text())
			}
		}
		for _, line := range m.lines {
			if !strings.Contains(line, ": ") {
				t.Errorf("%s: %q does not say what it explains", what, line)
			}
		}
	}
	says("dataset", ui.dataset.infoFig, "PCA components: ")
	if !strings.HasPrefix(ui.dataset.info.Text, "40 images") {
		t.Errorf("the data set line starts %q, not with its figures", ui.dataset.info.Text)
	}
	// The PCA field asks for 100; 40 images give 39, and the mark says why.
	if !strings.Contains(ui.dataset.info.Text, "39 PCA components") {
		t.Errorf("the data set line %q does not give 39 PCA components", ui.dataset.info.Text)
	}
	says("dataset", ui.dataset.infoFig, "40 images vary along at most 39 directions")

	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "3")
	setParam(ui, "restarts", "2")
	ui.run.start()
	ui.Wait()
	says("K-means", ui.features.info, "objective: ", "lower")
	if h := ui.features.header.Text; strings.Contains(h, "feature alone") || !strings.Contains(h, "mean of its images") {
		t.Errorf("K-means header: %q", h)
	}
	says("codes", ui.codes.info, "residual: ", "code: ")

	ui.run.picker.SetSelected(algorithms.Title("stepwise"))
	setParam(ui, "lambda2", "")
	setParam(ui, "restarts", "5")
	ui.run.start()
	ui.Wait()
	says("stepwise", ui.features.info, "objective: ", "λ²: ", "λ² path: ", "explains n %: ", "on/off or gradual: ")
	if strings.Contains(ui.features.info.text(), "NMI") {
		t.Errorf("NMI explained where it is not shown: %q", ui.features.info.text())
	}
	says("compare", ui.compare.info, "Rand index: ", "higher")

	ui.tabs.SelectIndex(tabDiagnostics)
	for _, name := range ui.diag.choice.Options {
		ui.diag.choice.SetSelected(name)
		if line, ok := plotExplained[name]; !ok || ui.diag.info.text() != line {
			t.Errorf("plot %q: info %q", name, ui.diag.info.text())
		}
	}

	// Tapped, the mark shows its lines in a tip inside the window; Esc closes it.
	ui.tabs.SelectIndex(tabFeatures)
	m := ui.features.info
	test.Tap(m)
	if m.tip == nil || !m.tip.Visible() || !strings.Contains(overlayText(ui.win), m.text()) {
		t.Fatalf("the tip shows %q", overlayText(ui.win))
	}
	win := ui.win.Canvas().Size()
	if p, s := m.tip.Position(), m.tip.Size(); p.X < 0 || p.Y < 0 || p.X+s.Width > win.Width || p.Y+s.Height > win.Height {
		t.Errorf("the tip at %v, %v leaves the %v window", p, s, win)
	}
	ui.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if ui.win.Canvas().Overlays().Top() != nil {
		t.Error("Esc left the tip open")
	}
}
