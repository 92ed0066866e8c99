package views

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/report"
)

// smallScreen is the smallest screen the window has to fit: nothing it shows may ask
// for more room than this.
var smallScreen = struct{ w, h float32 }{1024, 700}

// TestWindowFitsASmallScreen: the window's content asks for no more than 1024×700 with
// every algorithm's parameters, every segmenter's, and a result with hundreds of
// distinct codes. Long hints once widened it to 1 364 pixels and the code list made it
// 1 107 tall.
func TestWindowFitsASmallScreen(t *testing.T) {
	ui := newTestUI(t)
	ui.LoadSample("tabletop")
	ui.Wait()
	check := func(what string) {
		t.Helper()
		if s := ui.Content().MinSize(); s.Width > smallScreen.w || s.Height > smallScreen.h {
			t.Fatalf("%s: the window needs %v×%v", what, s.Width, s.Height)
		}
	}
	if firstSize.Width > smallScreen.w || firstSize.Height > smallScreen.h {
		t.Fatalf("the window opens at %v, larger than a %v×%v screen", firstSize, smallScreen.w, smallScreen.h)
	}
	check("the tabletop sample")
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
	counts := make([]report.CodeCount, 400)
	for i := range counts {
		counts[i] = report.CodeCount{Code: fmt.Sprintf("%012b", i), Count: 1}
	}
	ui.codes.counts.SetText(codeCountsText(counts))
	check("400 distinct codes")
	// 256 distinct codes of 156 bits, as the IBP gave on the ORL faces.
	long := make([]report.CodeCount, 256)
	for i := range long {
		long[i] = report.CodeCount{Code: strings.Repeat(fmt.Sprintf("%012b", i), 13), Count: 1}
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
		ui := loadedUI(t)
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
	ui := loadedUI(t)
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
	for _, stray := range []int{1, 3, 300} {
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
			if got := strings.Count(p.skipped.Text, "\n"); got != stray {
				t.Fatalf("the list has %d lines after its title, want %d", got, stray)
			}
			lines := min(stray+1, skippedLines)
			want := widget.NewLabel(strings.Repeat("\n", lines-1)).MinSize().Height
			if got := p.skippedBox.MinSize().Height; !p.skippedBox.Visible() || got != want {
				t.Fatalf("the list's box is %v tall (visible %v), want %v: %d lines", got, p.skippedBox.Visible(), want, lines)
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
	var matches []pipeline.FeatureMatch
	left, right := map[int]string{}, map[int]string{}
	for k := 0; k < 156; k++ {
		matches = append(matches, pipeline.FeatureMatch{Left: k, Right: k, Jaccard: float64(k%50) / 50})
		left[k], right[k] = fmt.Sprintf("#%d adds", k+1), fmt.Sprintf("#%d", k+1)
	}
	text := closestPairs(matches, left, right)
	if n := strings.Count(text, " ~ "); n != shownMatches || !strings.HasPrefix(text, "#50 adds ~ #50 (0.98)") ||
		!strings.HasSuffix(text, "and 144 more pairs") {
		t.Errorf("%d pairs: %q", n, text)
	}
}

// TestEveryTabFitsAfterLargeResults: after results of K = 1, 30 and 300 features (each
// image owning each of them with probability 0.3, so as many distinct codes of 300
// digits as there are images) and a code list of 1 000 distinct codes, no tab asks for
// more than an 800×600 screen. The Dataset tab's options row needed 872 px.
func TestEveryTabFitsAfterLargeResults(t *testing.T) {
	ui := newTestUI(t)
	ui.LoadSample("dice") // small pictures: 300 features of 320×240 took 1 GB to draw
	ui.Wait()
	prep := ui.dataset.prepared
	n, d := prep.Scores.Dims()
	fits := func(what string) {
		t.Helper()
		for i := range ui.tabs.Items {
			ui.tabs.SelectIndex(i)
			if s := ui.Content().MinSize(); s.Width > 800 || s.Height > 600 {
				t.Errorf("%s, tab %s: the window needs %v×%v", what, ui.tabs.Items[i].Text, s.Width, s.Height)
			}
		}
	}
	for _, k := range []int{1, 30, 300} {
		rng := rand.New(rand.NewPCG(uint64(k), 1))
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
		a := &pipeline.Analysis{Prepared: prep, Algorithm: "kfeatures", Result: &learn.Result{K: k, Z: Z, A: A}}
		if !ui.showAnalysis(report.Present(a)) {
			t.Fatalf("K = %d not shown", k)
		}
		fits(fmt.Sprintf("K = %d", k))
	}
	counts := make([]report.CodeCount, 1000)
	for i := range counts {
		counts[i] = report.CodeCount{Code: fmt.Sprintf("%030b", i), Count: 1}
	}
	ui.codes.counts.SetText(codeCountsText(counts))
	fits("1 000 distinct codes")
}
