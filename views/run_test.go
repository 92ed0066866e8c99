package views

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"featurelab/algorithms"
	"featurelab/algorithms/cluster"
	"featurelab/app"
)

func setParam(ui testUI, key, value string) {
	test.Type(ui.run.byKey[key].entry, "")
	ui.run.byKey[key].entry.SetText(value)
}

func TestRunStepwiseShowsFeaturesAndCodes(t *testing.T) {
	ui := smallUI(t)
	ui.run.picker.SetSelected(algorithms.Title("dpmeans"))
	if !strings.Contains(ui.run.lambda.Text, "proposed from the data") || ui.run.byKey["lambda2"].entry.Text == "" {
		t.Fatalf("λ² proposal not shown for DP-means: %q, field %q", ui.run.lambda.Text, ui.run.byKey["lambda2"].entry.Text)
	}
	ui.run.picker.SetSelected(algorithms.Title("bpmeans"))
	if !strings.Contains(ui.run.lambda.Text, "BP-means chooses K itself") || ui.run.byKey["lambda2"].entry.Text != "" {
		t.Fatalf("BP-means's λ² path not explained: %q, field %q", ui.run.lambda.Text, ui.run.byKey["lambda2"].entry.Text)
	}
	ui.run.picker.SetSelected(algorithms.Title("stepwise"))
	if !strings.Contains(ui.run.lambda.Text, "counts the things that come and go") {
		t.Fatalf("stepwise's λ² path not explained: %q", ui.run.lambda.Text)
	}
	setParam(ui, "lambda2", "20")
	setParam(ui, "restarts", "20")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("no result after Run: %s", ui.status.text())
	}
	k := ui.pres.Analysis.Result.K
	if k < 2 {
		t.Fatalf("stepwise found K = %d on the card deck", k)
	}
	if got := len(ui.features.cards.Objects); got != k {
		t.Fatalf("features view shows %d cards for K = %d", got, k)
	}
	if rows, _ := ui.codes.table.Length(); rows != len(ui.dataset.prepared.Data.Names) {
		t.Fatalf("codes table has %d rows", rows)
	}
	if !strings.Contains(ui.codes.counts.Text, "distinct codes") {
		t.Fatalf("code counts %q", ui.codes.counts.Text)
	}
	// Show owners of the last feature: the codes view marks exactly its owners and
	// brings the first of them into sight.
	last := len(ui.features.buttons) - 1
	test.Tap(ui.features.buttons[last])
	if ui.tabs.SelectedIndex() != 2 || len(ui.codes.owns) == 0 {
		t.Fatalf("owners not highlighted: tab %d, %d marked", ui.tabs.SelectedIndex(), len(ui.codes.owns))
	}
	if first := slices.Min(ui.pres.Owners[ui.pres.Features[last].Index]); ui.codes.scrolledTo != first {
		t.Fatalf("scrolled to row %d, the first owner is %d", ui.codes.scrolledTo, first)
	}
	ui.codes.table.Select(widgetCell(0, colCode))
	if !strings.Contains(ui.codes.detailTxt.Text, ui.pres.Codes[0]) {
		t.Fatalf("detail %q does not show the code", ui.codes.detailTxt.Text)
	}
}

func TestBadParameterDisablesRunWithAMessage(t *testing.T) {
	ui := loadedUI(t)
	ui.run.picker.SetSelected(algorithms.Title("kfeatures"))
	setParam(ui, "k", "zero")
	if !ui.run.runBtn.Disabled() {
		t.Fatal("Run stays enabled with a bad K")
	}
	if !strings.Contains(ui.run.message.Text, "k must be a whole number") {
		t.Fatalf("message %q", ui.run.message.Text)
	}
	setParam(ui, "k", "3")
	if ui.run.runBtn.Disabled() || ui.run.message.Text != "" {
		t.Fatalf("Run not re-enabled: message %q", ui.run.message.Text)
	}
}

func TestCancelKeepsThePreviousResult(t *testing.T) {
	ui := smallUI(t)
	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "3")
	// Cancelled before any result: the status does not speak of one.
	setParam(ui, "restarts", "100000")
	test.Tap(ui.run.runBtn)
	test.Tap(ui.status.cancel)
	ui.Wait()
	if got := ui.status.text(); ui.pres != nil || got != "Run cancelled; there is no result yet" {
		t.Fatalf("cancelled with no result: status %q", got)
	}
	setParam(ui, "restarts", "5")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	first := ui.pres
	if first == nil {
		t.Fatalf("first run failed: %s", ui.status.text())
	}
	// A long run, cancelled at once: the window keeps the first result.
	setParam(ui, "restarts", "100000") // the most restarts there may be
	test.Tap(ui.run.runBtn)
	test.Tap(ui.status.cancel)
	ui.Wait()
	if ui.pres != first {
		t.Fatal("the previous result was replaced by a cancelled run")
	}
	if got := ui.status.text(); got != "Run cancelled; the previous result is kept" {
		t.Fatalf("status %q", got)
	}
	if ui.run.runBtn.Disabled() {
		t.Fatal("Run stays disabled after a cancel")
	}
}

func TestExportGridWritesAReadablePNG(t *testing.T) {
	ui := smallUI(t)
	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "4")
	setParam(ui, "restarts", "3")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	path := filepath.Join(t.TempDir(), "grid.png")
	ui.Export(app.FeaturesFile, path)
	ui.Wait()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("export: %v (status %q)", err, ui.status.text())
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() < 4*128 || img.Bounds().Dy() < 2*128 {
		t.Fatalf("grid is only %v", img.Bounds())
	}
}

// TestStepwiseChoosesKFromThePathByDefault: a fresh window on the built-in sample, one
// click on Run: stepwise with its λ² field empty chooses K = 5 from its λ² path and says
// which λ² that was; the field stays empty for the next run, and a λ² typed in is used.
func TestStepwiseChoosesKFromThePathByDefault(t *testing.T) {
	ui := loadedUI(t)
	if ui.run.algo != "stepwise" || ui.run.byKey["lambda2"].entry.Text != "" || ui.run.runBtn.Disabled() {
		t.Fatalf("fresh window: %s, λ² %q, Run disabled %v", ui.run.algo, ui.run.byKey["lambda2"].entry.Text, ui.run.runBtn.Disabled())
	}
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if ui.pres == nil || ui.pres.Analysis.Result.K != 5 {
		t.Fatalf("no K = 5: %s", ui.status.text())
	}
	if l := ui.pres.Analysis.Result.Lambda2; !(l > 0) || !strings.Contains(ui.status.text(), "with λ² =") {
		t.Errorf("λ² chosen %v, status %q", l, ui.status.text())
	}
	if got := ui.run.byKey["lambda2"].entry.Text; got != "" {
		t.Errorf("the λ² field holds %q after the run", got)
	}
}

// TestThePathSwitchesKWithoutARerun: after a stepwise run that chose K from its λ²
// path, the Features view draws the path; a click on the plot inside K = 4's interval
// shows that K's fit at once, from the fits the run kept, and the plot stays, now
// marking K = 4, to go back. A click left or right of the plot area does nothing.
func TestThePathSwitchesKWithoutARerun(t *testing.T) {
	ui := loadedUI(t)
	setParam(ui, "restarts", "20")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if ui.pres == nil || ui.pres.Analysis.Result.K != 5 {
		t.Fatalf("no K = 5: %s", ui.status.text())
	}
	ran := ui.pres.Analysis.Result.Seconds
	plot := ui.features.plot
	if len(ui.features.path.Objects) == 0 || len(plot.entries) < 3 || plot.shown != 5 || plot.Size().Width < 100 {
		t.Fatalf("path plot: %d objects, entries %v, shown %d, size %v", len(ui.features.path.Objects), plot.entries, plot.shown, plot.Size())
	}
	var four app.PathEntry
	for _, e := range plot.entries {
		if e.K == 4 {
			four = e
		}
	}
	if four.K != 4 || !strings.Contains(ui.features.pathLbl.Text, "K = 5 is best for λ²") {
		t.Fatalf("no K = 4 on the path %v, or the label %q", plot.entries, ui.features.pathLbl.Text)
	}
	test.TapAt(plot, fyne.NewPos(2, plot.Size().Height/2)) // the K labels' margin
	ui.Wait()
	if ui.pres.Analysis.Result.K != 5 {
		t.Fatalf("a click beside the plot area switched to K = %d", ui.pres.Analysis.Result.K)
	}
	test.TapAt(plot, fyne.NewPos(plot.xAt(math.Sqrt(four.Low*four.High)), plot.Size().Height/2))
	ui.Wait()
	a := ui.pres.Analysis
	if a.Result.K != 4 || len(ui.features.cards.Objects) != 4 || a.Result.Seconds != ran {
		t.Fatalf("after choosing K = 4: K = %d, %d cards, run time %v (was %v)", a.Result.K, len(ui.features.cards.Objects), a.Result.Seconds, ran)
	}
	if e := a.Path(); len(e) < 3 || plot.shown != 4 || !strings.Contains(ui.status.text(), "without running again") {
		t.Errorf("path %v after the switch, plot marks K = %d, status %q", e, plot.shown, ui.status.text())
	}
}

// TestAsFoundSwitchesTheReading: after a stepwise run the Features view offers the
// learner's own reading beside the readable one; ticking it shows that form at once
// (codes included), without running again, and unticking it goes back.
func TestAsFoundSwitchesTheReading(t *testing.T) {
	ui := smallUI(t)
	setParam(ui, "restarts", "20")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if ui.pres == nil || !ui.features.asFound.Visible() || ui.features.asFound.Checked {
		t.Fatalf("after the run: shown %v, as-found box visible %v", ui.pres != nil, ui.features.asFound.Visible())
	}
	readable := ui.pres.Analysis
	saysBase(t, ui)
	test.Tap(ui.features.asFound)
	ui.Wait()
	found := ui.pres.Analysis
	saysBase(t, ui)
	if !found.AsFound || found.Result.Seconds != readable.Result.Seconds || !strings.Contains(ui.status.text(), "as found") {
		t.Fatalf("ticked: as found %v, status %q", found.AsFound, ui.status.text())
	}
	if strings.Join(found.Codes(), ",") == strings.Join(readable.Codes(), ",") {
		t.Errorf("the codes did not follow the reading")
	}
	test.Tap(ui.features.asFound)
	ui.Wait()
	if a := ui.pres.Analysis; a.AsFound || ui.features.asFound.Checked || strings.Join(a.Codes(), ",") != strings.Join(readable.Codes(), ",") {
		t.Errorf("unticked: as found %v, box %v", a.AsFound, ui.features.asFound.Checked)
	}
}

// saysBase fails t unless the Features tab's header says there is no base exactly when
// no feature of the shown result is owned by every image, as the exported grid does.
func saysBase(t *testing.T, ui testUI) {
	t.Helper()
	a := ui.pres.Analysis
	says, none := strings.Contains(ui.features.header.Text, app.NoBaseSentence()), a.BaseIndex() < 0
	if says != none {
		t.Errorf("as found %v: base %d, the header says no base %v: %q", a.AsFound, a.BaseIndex(), says, ui.features.header.Text)
	}
	t.Logf("as found %v: base %d", a.AsFound, a.BaseIndex())
}

// TestClusteringReadsHistogramsFromTheWindow: the clustering learners offer what they
// read of each image; choosing colour histograms and the KL divergence for DP-means
// empties λ² (the proposal on PCA scores no longer applies), and Run clusters the
// histograms. (Visual words take the same path; app's TestDescribe covers them.)
func TestClusteringReadsHistogramsFromTheWindow(t *testing.T) {
	ui := smallUI(t)
	if ui.run.readAs.Visible() {
		t.Fatalf("stepwise offers a representation")
	}
	ui.run.picker.SetSelected(algorithms.Title("dpmeans"))
	if !ui.run.readAs.Visible() || ui.run.byKey["lambda2"].entry.Text == "" {
		t.Fatalf("DP-means: representation shown %v, λ² %q", ui.run.readAs.Visible(), ui.run.byKey["lambda2"].entry.Text)
	}
	ui.run.describe.SetSelected("Colour histogram")
	ui.run.byKey["divergence"].choice.SetSelected(cluster.KL)
	if ui.run.byKey["lambda2"].entry.Text != "" || ui.run.runBtn.Disabled() || !strings.Contains(ui.run.lambda.Text, "proposes it in what it reads") {
		t.Fatalf("λ² %q, Run disabled %v, note %q", ui.run.byKey["lambda2"].entry.Text, ui.run.runBtn.Disabled(), ui.run.lambda.Text)
	}
	setParam(ui, "restarts", "5")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("no result: %s", ui.status.text())
	}
	a := ui.pres.Analysis
	if a.Description.Kind != app.FeaturesHistogram || a.Options.Divergence != "kl" || !(a.Result.Lambda2 > 0) || a.Result.K < 1 {
		t.Errorf("ran on %q with %q, λ² %v, K %d", a.Description.Kind, a.Options.Divergence, a.Result.Lambda2, a.Result.K)
	}
	ui.run.describe.SetSelected("PCA scores")
	ui.run.byKey["divergence"].choice.SetSelected(cluster.Euclidean)
	if ui.run.byKey["lambda2"].entry.Text == "" {
		t.Errorf("the proposal did not come back with the PCA scores")
	}
}
