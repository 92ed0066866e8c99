package views

import (
	"fmt"
	"image"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app"
	"featurelab/app/report"
	"featurelab/internal/accuracy"
)

// smallScreen is the smallest screen the window has to fit: nothing it shows may ask
// for more room than this.
var smallScreen = struct{ w, h float32 }{1024, 700}

// TestWindowFitsASmallScreen: the window's content asks for no more than 1024×700 with
// every algorithm's parameters, every segmenter's, and a result with hundreds of
// distinct codes. Long hints once widened it to 1 364 pixels and the code list made it
// 1 107 tall.
func TestWindowFitsASmallScreen(t *testing.T) {
	ui := smallUI(t)
	check := func(what string) {
		t.Helper()
		if s := ui.Content().MinSize(); s.Width > smallScreen.w || s.Height > smallScreen.h {
			t.Fatalf("%s: the window needs %v×%v", what, s.Width, s.Height)
		}
	}
	if firstSize.Width > smallScreen.w || firstSize.Height > smallScreen.h {
		t.Fatalf("the window opens at %v, larger than a %v×%v screen", firstSize, smallScreen.w, smallScreen.h)
	}
	check("the card deck")
	for _, a := range algorithms.Names() {
		ui.run.picker.SetSelected(algorithms.Title(a))
		check(a)
	}
	for _, m := range algorithms.Segmenters() {
		ui.segment.method.SetSelected(m.Title)
		check("segmenter " + m.Name)
		// Its advanced fields opened must not widen or lengthen the window either.
		ui.segment.more.accordion.OpenAll()
		check("segmenter " + m.Name + ", more options open")
		ui.segment.more.accordion.CloseAll()
	}
	// 400 images with 400 distinct codes, the worst the code list can be.
	counts := make([]app.CodeCount, 400)
	for i := range counts {
		counts[i] = app.CodeCount{Code: fmt.Sprintf("%012b", i), Count: 1}
	}
	ui.codes.counts.SetText(codeCountsText(counts))
	check("400 distinct codes")
	// 256 distinct codes of 156 bits, as the IBP gave on the ORL faces.
	long := make([]app.CodeCount, 256)
	for i := range long {
		long[i] = app.CodeCount{Code: strings.Repeat(fmt.Sprintf("%012b", i), 13), Count: 1}
	}
	ui.codes.counts.SetText(codeCountsText(long))
	check("256 distinct codes of 156 bits")
	for i := range ui.tabs.Items {
		ui.tabs.SelectIndex(i)
		check("tab " + ui.tabs.Items[i].Text)
	}
}

// TestFieldHintsAreShortAndWhole: hints under the fields are short, and the focused
// field's whole hint shows in the panel, λ²'s saying what a larger value does.
func TestFieldHintsAreShortAndWhole(t *testing.T) {
	ui := newTestUI(t)
	short := func(algo string, items []*widget.FormItem) {
		for _, it := range items {
			if n := len([]rune(it.HintText)); n > shortHintRunes {
				t.Errorf("%s, %s: hint %q is %d characters", algo, it.Text, it.HintText, n)
			}
		}
	}
	for _, a := range algorithms.Names() {
		ui.run.picker.SetSelected(algorithms.Title(a))
		short(a, append(ui.run.form.Items, ui.run.more.form.Items...))
	}
	for _, m := range algorithms.Segmenters() {
		ui.segment.method.SetSelected(m.Title)
		short(m.Name, append(ui.segment.form.Items, ui.segment.more.form.Items...))
	}
	ui.run.picker.SetSelected(algorithms.Title("bpmeans"))
	ui.win.Canvas().Focus(ui.run.byKey["lambda2"].entry)
	if got := ui.run.help.Text; !strings.Contains(got, "a larger λ² gives fewer features") {
		t.Fatalf("help after focusing λ²: %q", got)
	}
}

// TestCodesTableFitsAt1024: in a 1024×700 window, after a run, the codes table shows all
// its columns without scrolling sideways, for short codes and for 16 features.
func TestCodesTableFitsAt1024(t *testing.T) {
	for _, tc := range []struct {
		algo string
		k    string
	}{{"kmeans", "4"}, {"kfeatures", "16"}} {
		ui := smallUI(t)
		ui.win.Resize(fyne.NewSize(smallScreen.w, smallScreen.h))
		ui.run.picker.SetSelected(algorithms.Title(tc.algo))
		setParam(ui, "k", tc.k)
		setParam(ui, "restarts", "2")
		ui.run.start()
		ui.Wait()
		ui.tabs.SelectIndex(tabCodes)
		code := codeWidth(ui.pres.Codes, ui.pres.Probabilities(0) != nil)
		need := ui.codes.table.CreateHeader().MinSize().Width + code + nameWidth(code)
		for c, w := range codesWidths {
			if c != colCode && c != colName {
				need += w
			}
		}
		need += float32(codesColumns) * theme.Padding() // the separators between columns
		if got := ui.codes.table.Size().Width; got < need {
			t.Errorf("%s K = %s: the codes table is %v wide at 1024×700, its columns need %v", tc.algo, tc.k, got, need)
		}
	}
}

// TestLongCodesShowWhole: a code of 16 features shows whole in its column; the column
// was sized short of the label's padding and showed 14 digits and an ellipsis.
func TestLongCodesShowWhole(t *testing.T) {
	ui := smallUI(t)
	ui.run.picker.SetSelected(algorithms.Title("kfeatures"))
	setParam(ui, "k", "16")
	setParam(ui, "restarts", "2")
	ui.run.start()
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("no result: %s", ui.status.text())
	}
	cell := newCodesCell()
	ui.codes.updateCell(widget.TableCellID{Row: 0, Col: colCode}, cell)
	label := cell.(*fyne.Container).Objects[1].(*widget.Label)
	whole := widget.NewLabelWithStyle(label.Text, fyne.TextAlignLeading, label.TextStyle)
	if len(label.Text) != 16 {
		t.Fatalf("code %q, want 16 digits", label.Text)
	}
	if need, got := whole.MinSize().Width, codeWidth(ui.pres.Codes, ui.pres.Probabilities(0) != nil); got < need {
		t.Errorf("code column %v wide, %q needs %v", got, label.Text, need)
	}
}

// TestSkippedListFitsASmallScreen: a folder's stray files are listed in a box as tall as
// the list up to skippedLines lines; more scroll. A folder with 34 stray files (Python
// sources, NumPy arrays) once made the window 1 071 pixels tall, Segment off the screen.
func TestSkippedListFitsASmallScreen(t *testing.T) {
	for _, stray := range []int{1, 3, 3000} {
		t.Run(fmt.Sprint(stray, " stray files"), func(t *testing.T) {
			ui := newTestUI(t)
			dir := t.TempDir()
			writeTwoPictures(t, dir)
			for i := range stray {
				name := filepath.Join(dir, fmt.Sprintf("module_%03d_with_a_rather_long_name_for_its_line.py", i))
				if err := os.WriteFile(name, []byte("print(1)"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ui.LoadFolder(dir)
			ui.Wait()
			p := ui.dataset
			if got := strings.Count(p.skipped.text(), "\n"); got != stray {
				t.Fatalf("the list has %d lines after its title, want %d", got, stray)
			}
			lines := min(stray+1, skippedLines)
			want := widget.NewLabel("").MinSize().Height*float32(lines) + theme.Padding()*float32(lines-1)
			if got := p.skipped.box.MinSize().Height; !p.skipped.box.Visible() || got != want {
				t.Fatalf("the list's box is %v tall (visible %v), want %v: %d lines", got, p.skipped.box.Visible(), want, lines)
			}
			// Laid out, the list makes labels for the lines in view, not for every file.
			p.skipped.box.Resize(fyne.NewSize(600, want))
			labels := 0
			walkVisible(p.skipped.box, func(o fyne.CanvasObject) {
				if _, ok := o.(*widget.Label); ok {
					labels++
				}
			})
			if labels < lines || labels > 3*skippedLines {
				t.Errorf("the list holds %d labels for %d lines in view", labels, lines)
			}
			for i := range ui.tabs.Items {
				ui.tabs.SelectIndex(i)
				if s := ui.Content().MinSize(); s.Width > smallScreen.w || s.Height > smallScreen.h {
					t.Fatalf("tab %s: the window needs %v×%v", ui.tabs.Items[i].Text, s.Width, s.Height)
				}
			}
		})
	}
}

// TestComparisonListsTheClosestPairsOnly: of 156 matched features (an IBP result on the
// ORL faces), the comparison names the 12 closest, the closest first, and counts the rest.
func TestComparisonListsTheClosestPairsOnly(t *testing.T) {
	var matches []app.FeatureMatch
	left, right := map[int]string{}, map[int]string{}
	for k := 0; k < 156; k++ {
		matches = append(matches, app.FeatureMatch{Left: k, Right: k, Jaccard: float64(k%50) / 50})
		left[k], right[k] = fmt.Sprintf("#%d adds", k+1), fmt.Sprintf("#%d", k+1)
	}
	text := closestPairs(matches, left, right)
	if n := strings.Count(text, " ~ "); n != shownMatches || !strings.HasPrefix(text, "#50 adds ~ #50 (0.98)") ||
		!strings.HasSuffix(text, "and 144 more pairs") {
		t.Errorf("%d pairs: %q", n, text)
	}
}

// TestEveryTabFitsAfterLargeResults: on 1 000 pictures with names of 150 characters,
// after results of K = 1 and 300 features (each image owning each feature with
// probability 0.3, so 1 000 distinct codes of up to 300 digits) from two learners, so
// that Compare matches up to 300 pairs, every tab of a 1024×700 and of an 800×600
// window asks for no more room than the window has (a real window grows to what its
// content asks: ORL's IBP codes made it 1 219 tall), the canvas keeps its size, and
// Run (Segment, Co-segment on their tabs) and the status bar lie whole inside it,
// below the menu bar's height. The Dataset tab's options row once needed 872 px.
// The pictures are 16×12: 300 features of 320×240 took 5.9 GB to draw under -race.
func TestEveryTabFitsAfterLargeResults(t *testing.T) {
	// A generated folder of 1 000 pictures and results of 300 features: the window at
	// scale, run at full speed in the pass without the race detector.
	accuracy.Check(t)
	ui := newTestUI(t)
	dir := t.TempDir()
	const images = 1000
	names := make([]string, images)
	for i := range names {
		names[i] = fmt.Sprintf("%04d_%s.png", i, strings.Repeat("a_rather_long_file_name_", 6))
	}
	writePNGs(t, dir, names, func(i int) image.Image {
		rng := rand.New(rand.NewPCG(uint64(i), 2))
		img := image.NewRGBA(image.Rect(0, 0, 16, 12))
		for p := range img.Pix {
			img.Pix[p] = uint8(rng.IntN(256))
		}
		return img
	})
	ui.LoadFolder(dir)
	ui.Wait()
	prep := ui.dataset.prepared
	if prep == nil {
		t.Fatalf("the folder did not load: %s", ui.status.text())
	}
	n, d := prep.Scores.Dims()
	if n != images {
		t.Fatalf("%d images loaded, want %d", n, images)
	}
	for _, k := range []int{1, 300} { // the fewest and the most features
		for _, algo := range []string{"bpmeans", "kfeatures"} {
			rng := rand.New(rand.NewPCG(uint64(k), uint64(len(algo))))
			Z, A := mat.NewDense(n, k, nil), mat.NewDense(k, d, nil)
			for i := 0; i < n; i++ {
				for f := 0; f < k; f++ {
					if f == 0 || rng.Float64() < 0.3 {
						Z.Set(i, f, 1)
					}
				}
			}
			for i := range A.RawMatrix().Data {
				A.RawMatrix().Data[i] = rng.NormFloat64()
			}
			a := &app.Analysis{Prepared: prep, Algorithm: algorithms.MustLookup(algo), Result: &learn.Result{K: k, Z: Z, A: A}}
			if !ui.showAnalysis(report.Present(a)) {
				t.Fatalf("K = %d not shown", k)
			}
		}
		if k > 1 {
			if got := len(ui.pres.CodeCounts); got < images*9/10 {
				t.Fatalf("K = %d: %d distinct codes, want about %d", k, got, images)
			}
			if m := strings.Count(ui.compare.summary.Text, " ~ "); m != shownMatches {
				t.Fatalf("K = %d: Compare lists %d pairs: %q", k, m, ui.compare.summary.Text)
			}
		}
		for _, screen := range []fyne.Size{{Width: 1024, Height: 700}, {Width: 800, Height: 600}} {
			ui.win.Resize(screen)
			for i := range ui.tabs.Items {
				ui.tabs.SelectIndex(i)
				what := fmt.Sprintf("K = %d, %v×%v, tab %s", k, screen.Width, screen.Height, ui.tabs.Items[i].Text)
				fitsTheScreen(t, ui, screen, what)
			}
		}
	}
}

// fitsTheScreen checks that the window's content asks for no more than screen, less the
// menu bar a real window draws above it, that the canvas is still screen's size, and
// that the tab's Run button and the status bar show whole inside the content.
func fitsTheScreen(t *testing.T, ui testUI, screen fyne.Size, what string) {
	t.Helper()
	// The GLFW driver's menu bar: a line of text and the inner padding.
	menu := canvas.NewText("File", nil).MinSize().Height + theme.InnerPadding()
	room := fyne.NewSize(screen.Width, screen.Height-menu)
	if s := ui.Content().MinSize(); s.Width > room.Width || s.Height > room.Height {
		t.Errorf("%s: the content needs %v×%v, the window has %v×%v below its menu", what, s.Width, s.Height, room.Width, room.Height)
	}
	if s := ui.win.Canvas().Size(); s != screen {
		t.Errorf("%s: the window became %v×%v", what, s.Width, s.Height)
	}
	// Laid out in the room a real window leaves below its menu bar.
	ui.Content().Resize(room)
	run := ui.run.runBtn
	switch ui.tabs.SelectedIndex() {
	case tabSegmentation:
		run = ui.segment.runBtn
	case tabCosegmentation:
		run = ui.coseg.runBtn
	}
	for _, o := range []struct {
		name string
		obj  fyne.CanvasObject
	}{{run.Text, run}, {"the status bar", ui.status.object()}} {
		pos, size, ok := shownAt(ui.Content(), o.obj)
		switch {
		case !ok:
			t.Errorf("%s: %s is hidden", what, o.name)
		case pos.X < 0 || pos.Y < 0 || pos.X+size.Width > room.Width+0.5 || pos.Y+size.Height > room.Height+0.5 ||
			size.Width < o.obj.MinSize().Width || size.Height < o.obj.MinSize().Height:
			t.Errorf("%s: %s is at %v, %v×%v, outside the %v×%v content or squeezed", what, o.name, pos, size.Width, size.Height, room.Width, room.Height)
		}
	}
	ui.win.Resize(screen)
}

// shownAt finds obj in the tree under root and returns where it lies relative to root
// and its size; false when it is not in the tree or it or a parent is hidden, or a
// scroller it sits in has scrolled it out of view.
func shownAt(root, obj fyne.CanvasObject) (fyne.Position, fyne.Size, bool) {
	if !root.Visible() {
		return fyne.Position{}, fyne.Size{}, false
	}
	if root == obj {
		return fyne.Position{}, obj.Size(), true
	}
	var children []fyne.CanvasObject
	switch r := root.(type) {
	case *fyne.Container:
		children = r.Objects
	case fyne.Widget:
		children = test.WidgetRenderer(r).Objects()
	}
	for _, c := range children {
		if pos, size, ok := shownAt(c, obj); ok {
			pos = pos.Add(c.Position())
			// A scroller's renderer has moved its content by the offset already.
			if s, isScroll := root.(*container.Scroll); isScroll {
				if pos.Y < 0 || pos.Y+size.Height > s.Size().Height+0.5 {
					return pos, size, false
				}
			}
			return pos, size, true
		}
	}
	return fyne.Position{}, fyne.Size{}, false
}
