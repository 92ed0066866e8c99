package views

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"featurelab/algorithms"
	"featurelab/algorithms/segment"
	"featurelab/app"
	"featurelab/app/pipeline"
)

// runAlgorithm picks an algorithm, sets its parameters, taps Run and waits for the job.
func runAlgorithm(t *testing.T, ui testUI, algo string, params map[string]string) *app.Presentation {
	t.Helper()
	ui.run.picker.SetSelected(algorithms.Title(algo))
	for k, v := range params {
		setParam(ui, k, v)
	}
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if ui.pres == nil || ui.pres.Analysis.Algorithm.Name != algo {
		t.Fatalf("%s did not finish: %s", algo, ui.status.text())
	}
	return ui.pres
}

func TestIBPRunShowsTracesAndHistogram(t *testing.T) {
	ui := smallUI(t)
	p := runAlgorithm(t, ui, "ibp", map[string]string{"sweeps": "40", "chains": "1"})
	if got := len(p.Analysis.Result.Trace.K); got != 40 {
		t.Fatalf("trace of %d sweeps, want 40", got)
	}
	opts := ui.diag.choice.Options
	for _, want := range []string{app.PlotTraceK, app.PlotTraceHyp, app.PlotLogJoint, app.PlotKHist} {
		if !slices.Contains(opts, want) {
			t.Fatalf("diagnostics offer %v, missing %q", opts, want)
		}
	}
	ui.diag.choice.SetSelected(app.PlotKHist)
	if ui.diag.plot.plot == nil || ui.diag.plot.plot.Title.Text == "" || ui.diag.export.Disabled() {
		t.Fatal("K histogram not drawn")
	}
	path := filepath.Join(t.TempDir(), "khist.svg")
	ui.ExportPlot(app.PlotKHist, path)
	ui.Wait()
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), "<svg") {
		t.Fatalf("plot export: %v (status %q)", err, ui.status.text())
	}
}

func TestCompareShowsTwoResultsSideBySide(t *testing.T) {
	ui := smallUI(t)
	runAlgorithm(t, ui, "stepwise", map[string]string{"lambda2": "20", "restarts": "10"})
	runAlgorithm(t, ui, "kmeans", map[string]string{"k": "4", "restarts": "5"})
	c := ui.compare
	if c.left.alg != algorithms.MustLookup("stepwise") || c.right.alg != algorithms.MustLookup("kmeans") {
		t.Fatalf("compare shows %v vs %v, want stepwise vs kmeans", c.left.alg, c.right.alg)
	}
	if !strings.Contains(c.summary.Text, "Rand index") || !strings.Contains(c.summary.Text, "Jaccard") {
		t.Fatalf("summary %q", c.summary.Text)
	}
	if got, want := len(c.left.cards.Objects), ui.session.Result(algorithms.MustLookup("stepwise")).Analysis.Result.K; got != want {
		t.Fatalf("left side shows %d features, want %d", got, want)
	}
	if got := len(c.right.cards.Objects); got != 4 {
		t.Fatalf("right side shows %d clusters, want 4", got)
	}
	// The user swaps the sides: the comparison follows.
	c.left.picker.SetSelected(algorithms.Title("kmeans"))
	c.right.picker.SetSelected(algorithms.Title("stepwise"))
	if !strings.HasPrefix(c.summary.Text, "K-means vs") {
		t.Fatalf("after swapping: %q", c.summary.Text)
	}
	// A new data set drops the old results.
	ui.LoadSample("dice")
	ui.Wait()
	if len(ui.session.Algorithms()) != 0 || c.summary.Text != compareHint || ui.pres != nil || len(ui.features.cards.Objects) != 0 {
		t.Fatalf("results of the old data set survive: %v, %q", ui.session.Algorithms(), c.summary.Text)
	}
}

func TestSegmentAnImageOfTheDataSet(t *testing.T) {
	ui := smallUI(t)
	v := ui.segment
	if len(v.image.Options) != len(ui.dataset.prepared.Data.Names) || v.image.Selected == "" {
		t.Fatalf("image list %d entries, selected %q", len(v.image.Options), v.image.Selected)
	}
	if v.pics[0].Image == nil || v.pics[1].Image != nil {
		t.Fatal("the chosen image is not shown before it is segmented")
	}
	for _, m := range algorithms.Segmenters() {
		v.method.SetSelected(m.Title)
		if m.Name == app.MethodKPYP {
			setEntry(v.byKey["iters"].entry, "30")
			setEntry(v.byKey["width"].entry, "0.4")
			v.byKey["learn-locations"].check.SetChecked(true)
			v.byKey["learn-widths"].check.SetChecked(true)
			// The window segments as the command line does: with its default discount.
			if o, err := v.options(); err != nil || o.Width != 0.4 || !o.LearnLocations || !o.LearnWidths || o.Discount != segment.DefaultDiscount {
				t.Fatalf("KPYP options from the form: %+v, %v", o, err)
			}
		}
		// The KPYP's switches sit under More options; the other methods have none.
		if shown := slices.Contains(v.more.form.Items, v.byKey["learn-locations"].item); shown != (m.Name == app.MethodKPYP) {
			t.Errorf("%s: the learn switch shown = %v", m.Name, shown)
		}
		test.Tap(v.runBtn)
		ui.Wait()
		if v.result == nil || v.pics[1].Image == nil || v.pics[2].Image == nil {
			t.Fatalf("%s: nothing shown: %s", m.Name, ui.status.text())
		}
		if !strings.Contains(v.info.Text, "segments in") {
			t.Fatalf("%s: info %q", m.Name, v.info.Text)
		}
		if v.result.Result.Segments < 2 {
			t.Errorf("%s: %d segments on a card", m.Name, v.result.Result.Segments)
		}
		if pl := v.bound.plot; pl == nil || (m.Name == app.MethodKPYP) != (pl.Title.Text == "Variational bound") {
			t.Errorf("%s: trace %v", m.Name, pl)
		}
	}
	dir := t.TempDir()
	ui.SaveSegmentation(dir)
	ui.Wait()
	if got := app.ExistingOutputs(dir); len(got) != 3 {
		t.Fatalf("saved %v, want the three images (status %q)", got, ui.status.text())
	}
}

func TestSegmentBadParameterAndCancel(t *testing.T) {
	ui := loadedUI(t)
	v := ui.segment
	v.method.SetSelected(algorithms.Segmenters()[0].Title)
	setEntry(v.byKey["truncation"].entry, "0")
	if !v.runBtn.Disabled() || !strings.Contains(v.message.Text, "truncation must be a whole number in [1, 65536]") {
		t.Fatalf("bad truncation: Run enabled %v, message %q", !v.runBtn.Disabled(), v.message.Text)
	}
	setEntry(v.byKey["truncation"].entry, "20")
	if v.runBtn.Disabled() {
		t.Fatal("Segment stays disabled after the mend")
	}
	test.Tap(v.runBtn)
	test.Tap(ui.status.cancel)
	ui.Wait()
	if v.result != nil || ui.status.text() != "Segmentation cancelled; there is no result yet" || v.runBtn.Disabled() {
		t.Fatalf("after cancel: result %v, status %q", v.result != nil, ui.status.text())
	}
}

// A bad value in a field the chosen method does not use neither blocks the run nor
// reaches it: K-means segments with a KPYP kernel width of −1 left in the hidden field.
func TestSegmentIgnoresTheFieldsOfAnotherMethod(t *testing.T) {
	ui := loadedUI(t)
	v := ui.segment
	v.method.SetSelected(algorithms.Segmenters()[0].Title)
	setEntry(v.byKey["width"].entry, "-1")
	v.method.SetSelected(algorithms.Segmenters()[1].Title)
	if v.runBtn.Disabled() {
		t.Fatalf("Segment disabled by a field %s does not use: %q", algorithms.Segmenters()[1].Title, v.message.Text)
	}
	test.Tap(v.runBtn)
	ui.Wait()
	if v.result == nil || strings.Contains(ui.status.text(), "failed") {
		t.Fatalf("%s with a hidden bad width: status %q", algorithms.Segmenters()[1].Title, ui.status.text())
	}
}

func TestSegmentAFileThatIsNotAnImage(t *testing.T) {
	ui := loadedUI(t)
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	ui.segment.openFile(path)
	if ui.segment.image.Selected != openedPrefix+path {
		t.Fatalf("selected %q", ui.segment.image.Selected)
	}
	test.Tap(ui.segment.runBtn)
	ui.Wait()
	if ui.segment.result != nil || ui.status.text() != "Segmentation failed" {
		t.Fatalf("status %q", ui.status.text())
	}
}

func TestLoadOptionsReloadTheDataSet(t *testing.T) {
	ui := loadedUI(t)
	d := ui.dataset
	setEntry(d.size, "40")
	if !d.reload.Disabled() || !strings.Contains(d.message.Text, "size must look like") {
		t.Fatalf("bad size: reload enabled %v, message %q", !d.reload.Disabled(), d.message.Text)
	}
	setEntry(d.size, "40x30")
	setEntry(d.pca, "10")
	d.colour.SetSelected(pipeline.ColourGrey)
	if d.reload.Disabled() {
		t.Fatalf("reload disabled: %q", d.message.Text)
	}
	test.Tap(d.reload)
	ui.Wait()
	ds := d.prepared.Data
	if ds.Width != 40 || ds.Height != 30 || ds.Channels != 1 || d.prepared.PCA.D != 10 {
		t.Fatalf("reloaded as %d×%d×%d with %d components", ds.Width, ds.Height, ds.Channels, d.prepared.PCA.D)
	}
	if !strings.Contains(d.info.Text, "40×30 grey, 10 PCA components") {
		t.Fatalf("info %q", d.info.Text)
	}
	// The choices are remembered for the next session.
	if got := ui.fyneApp.Preferences().String(prefSize); got != "40x30" {
		t.Fatalf("size preference %q", got)
	}
}

func setEntry(e interface{ SetText(string) }, s string) { e.SetText(s) }

// A picture of the same name in a newly opened data set is another picture: the
// segmentation view shows the new one, and segments it.
func TestSegmentViewFollowsANewDataSetWithTheSameNames(t *testing.T) {
	ui := loadedUI(t)
	v := ui.segment
	v.image.SetSelected("scene_004.jpg")
	ui.Wait()
	if b := v.pics[0].Image.Bounds(); b.Dx() != 320 {
		t.Fatalf("sample picture %v", b)
	}
	dir := t.TempDir()
	writePNGs(t, dir, []string{"scene_004.jpg", "other.jpg"}, func(i int) image.Image {
		img := image.NewNRGBA(image.Rect(0, 0, 40, 30))
		img.Set(i, i, color.NRGBA{R: 200, A: 255}) // two different pictures, or the PCA fails
		return img
	})
	ui.LoadFolder(dir)
	ui.Wait()
	if v.image.Selected != "scene_004.jpg" {
		t.Fatalf("selected %q", v.image.Selected)
	}
	if b := v.pics[0].Image.Bounds(); b.Dx() != 40 {
		t.Fatalf("after opening the folder the view still shows a %v picture", b)
	}
	test.Tap(v.runBtn)
	ui.Wait()
	if v.result == nil || v.result.Image.Bounds().Dx() != 40 {
		t.Fatalf("segmented %v (status %q)", v.result, ui.status.text())
	}
}

// The picture on show belongs to its data set: after a picture of the list failed to
// open, a new data set with a same-named picture is segmented from its own file, even
// when Segment is pressed before that picture is on screen.
func TestSegmentAfterANewDataSetUsesItsOwnPicture(t *testing.T) {
	ui := newTestUI(t)
	v := ui.segment
	first, second := t.TempDir(), t.TempDir()
	picture := func(w int) func(int) image.Image {
		return func(i int) image.Image {
			img := image.NewNRGBA(image.Rect(0, 0, w, 30))
			img.Set(i, i, color.NRGBA{R: 200, A: 255}) // two different pictures, or the PCA fails
			return img
		}
	}
	writePNGs(t, first, []string{"a.png", "b.png"}, picture(40))
	writePNGs(t, second, []string{"a.png", "c.png"}, picture(50))
	ui.LoadFolder(first)
	ui.Wait()
	v.image.SetSelected("b.png")
	if err := os.Remove(filepath.Join(first, "b.png")); err != nil {
		t.Fatal(err)
	}
	ui.Wait() // b.png fails to open; a.png of the first folder stays on show
	ui.LoadFolder(second)
	ui.queue.next() // the load, which selects a.png; its picture is not read yet
	if v.image.Selected != "a.png" {
		t.Fatalf("selected %q", v.image.Selected)
	}
	test.Tap(v.runBtn)
	ui.Wait()
	if v.result == nil || v.result.Image.Bounds().Dx() != 50 {
		t.Fatalf("segmented %v (status %q), want the second folder's 50-pixel a.png", v.result, ui.status.text())
	}
}

// TestSegmentationIsScoredAgainstHumanMaps: with a folder of human segmentations set, a
// segmented photo that has one (<id>_<k>.png) is scored as segment-eval scores it; one
// that has none says so.
func TestSegmentationIsScoredAgainstHumanMaps(t *testing.T) {
	ui := newTestUI(t)
	photos, truth := t.TempDir(), t.TempDir()
	photo, halves := twoHalves()
	writePNGs(t, photos, []string{"two.png", "other.png"}, func(int) image.Image { return photo })
	writePNGs(t, truth, []string{"two_1.png"}, func(int) image.Image { return halves })
	v := ui.segment
	v.setTruth(truth)
	for _, m := range algorithms.Segmenters() {
		if m.Name == segment.MethodKMeans {
			v.method.SetSelected(m.Title)
		}
	}
	setEntry(v.byKey["k"].entry, "2")
	for _, tc := range []struct{ file, want string }{
		{"two.png", "PRI 1.000, VoI 0.00 nats (0.00 bits) against 1 human segmentations"},
		{"other.png", "no human segmentation of it in " + truth},
	} {
		v.openFile(filepath.Join(photos, tc.file))
		ui.Wait()
		test.Tap(v.runBtn)
		ui.Wait()
		if !strings.Contains(v.info.Text, tc.want) {
			t.Errorf("%s: info %q, want %q", tc.file, v.info.Text, tc.want)
		}
	}
	if got := ui.fyneApp.Preferences().String(prefTruthFolder); got != truth {
		t.Errorf("truth folder remembered as %q", got)
	}
	// Chosen after a segmentation is shown, a folder scores it at once, and its note
	// replaces the previous folder's.
	v.setTruth("")
	v.openFile(filepath.Join(photos, "two.png"))
	ui.Wait()
	test.Tap(v.runBtn)
	ui.Wait()
	if strings.Contains(v.info.Text, "PRI") || strings.Contains(v.infoFig.text(), "PRI") {
		t.Fatalf("scored with no folder of human segmentations: %q", v.info.Text)
	}
	elsewhere := t.TempDir()
	for _, tc := range []struct{ dir, want, not string }{
		{truth, "PRI 1.000, VoI 0.00 nats", "no human segmentation"},
		{elsewhere, "no human segmentation of it in " + elsewhere, "PRI"},
	} {
		v.truthChosen(tc.dir)
		ui.Wait()
		if !strings.Contains(v.info.Text, tc.want) || strings.Contains(v.info.Text, tc.not) {
			t.Errorf("after choosing %s: info %q, want %q and no %q", tc.dir, v.info.Text, tc.want, tc.not)
		}
		if scored := strings.Contains(v.infoFig.text(), "PRI: "); scored != (tc.not != "PRI") {
			t.Errorf("after choosing %s: the info mark says %q", tc.dir, v.infoFig.text())
		}
	}
}

// TestHumanSegmentationsByTypingTheirPath: Human segmentations… asks for a folder's path
// as Open image… asks for a picture's, proposing beside a BSDS-like picture
// (images/two.png) its sibling groundTruth, all selected; Enter scores the segmentation
// shown. The chooser it replaced started in the folder the program was started from.
func TestHumanSegmentationsByTypingTheirPath(t *testing.T) {
	root := t.TempDir()
	images, truth := filepath.Join(root, "images"), filepath.Join(root, "groundTruth")
	for _, d := range []string{images, truth} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	photo, halves := twoHalves()
	writePNGs(t, images, []string{"two.png"}, func(int) image.Image { return photo })
	writePNGs(t, truth, []string{"two_1.png"}, func(int) image.Image { return halves })
	ui := newTestUI(t)
	v := ui.segment
	for _, m := range algorithms.Segmenters() {
		if m.Name == segment.MethodKMeans {
			v.method.SetSelected(m.Title)
		}
	}
	setEntry(v.byKey["k"].entry, "2")
	v.openFile(filepath.Join(images, "two.png"))
	ui.Wait()
	test.Tap(v.runBtn)
	ui.Wait()
	test.Tap(v.truthBtn)
	o := v.truthDialog
	if o == nil || ui.win.Canvas().Focused() != o.path {
		t.Fatalf("no path field focused")
	}
	if o.path.Text != truth || o.path.SelectedText() != truth {
		t.Errorf("the dialog proposes %q (%q selected), want %q all selected", o.path.Text, o.path.SelectedText(), truth)
	}
	o.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	ui.Wait()
	if want := "PRI 1.000"; !strings.Contains(v.info.Text, want) || v.truthDir != truth {
		t.Errorf("after Enter: info %q, folder %q; want %q against %s", v.info.Text, v.truthDir, want, truth)
	}
}

// TestOpenImageByTypingItsPath: Open image… asks for a path as Open folder does — the
// field focused, the last picture in it selected, a folder refused with a line — and its
// Browse… lists the pictures of the folder, not its other files.
func TestOpenImageByTypingItsPath(t *testing.T) {
	dir := t.TempDir()
	writeTwoPictures(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a picture"), 0o644); err != nil {
		t.Fatal(err)
	}
	ui := newTestUI(t)
	ui.win.Resize(fyne.NewSize(1024, 700))
	v := ui.segment
	for _, tc := range []struct{ typed, want string }{
		{dir, "is a folder"},
		{filepath.Join(dir, "nothing.png"), "no such file"},
		{`"` + filepath.Join(dir, "a.png") + `"`, ""},
	} {
		test.Tap(v.openBtn)
		o := v.openDialog
		if ui.win.Canvas().Focused() != o.path {
			t.Fatalf("the path field is not focused")
		}
		test.Type(o.path, tc.typed)
		o.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		ui.Wait()
		if tc.want != "" {
			if !o.message.Visible() || !strings.Contains(o.message.Text, tc.want) {
				t.Errorf("%q: message %q", tc.typed, o.message.Text)
			}
			o.d.Hide()
			continue
		}
		if want := openedPrefix + filepath.Join(dir, "a.png"); v.image.Selected != want {
			t.Errorf("%q: the image chosen is %q, want %q", tc.typed, v.image.Selected, want)
		}
	}
	test.Tap(v.openBtn)
	o := v.openDialog
	if want := filepath.Join(dir, "a.png"); o.path.Text != want || o.path.SelectedText() != want {
		t.Errorf("Open image starts at %q with %q selected, want the last picture all selected", o.path.Text, o.path.SelectedText())
	}
	// Browse… opens the chooser in the picture's folder, listing pictures only.
	for _, b := range overlayButtons(ui.win) {
		if b.Text == "Browse…" {
			test.Tap(b)
		}
	}
	// The chooser shows a file's name and its extension apart: "b" and ".png".
	listed := strings.Split(overlayText(ui.win), "\n")
	if !slices.Contains(listed, "b") || slices.Contains(listed, "notes") {
		t.Errorf("Browse… lists %q: want b.png and not notes.txt", listed)
	}
}

// twoHalves is a 40×30 photo red on the left and blue on the right, and its human
// segmentation: labels 1 and 2 (16-bit, as BSDS500's).
func twoHalves() (*image.RGBA, *image.Gray16) {
	halves := image.NewGray16(image.Rect(0, 0, 40, 30))
	photo := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for y := range 30 {
		for x := range 40 {
			label, c := uint16(1), color.RGBA{200, 30, 30, 255}
			if x >= 20 {
				label, c = 2, color.RGBA{30, 30, 200, 255}
			}
			halves.SetGray16(x, y, color.Gray16{Y: label})
			photo.Set(x, y, c)
		}
	}
	return photo, halves
}
