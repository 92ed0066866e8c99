package views

import (
	"fmt"
	"image"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms"
)

// TestApplyAnalysisToFolder: features learned on the built-in card deck, applied through
// File → Apply analysis to folder… (the path dialog) to a folder of six of its pictures
// and one of noise, list the new images in the Codes tab with the noise first and
// marked, the six coded as the analysis coded them; the Features tab counts the new
// images and Show owners marks them; Export images by feature then sorts the new images;
// a folder with no pictures is one status line and the applied folder stays; Back to
// the training images lists those again; saved and reopened, the analysis codes the
// folder alike.
func TestApplyAnalysisToFolder(t *testing.T) {
	ui := newTestUI(t)
	ui.chooseApplyFolder()
	if ui.applyDialog != nil || !strings.Contains(ui.status.text(), "Nothing to apply") {
		t.Fatalf("with no result: dialog %v, status %q", ui.applyDialog != nil, ui.status.text())
	}
	root := t.TempDir()
	if err := writeSampleTo(root, "cards"); err != nil {
		t.Fatal(err)
	}
	deck := filepath.Join(root, "cards")
	ui.dataset.pca.SetText("20")
	ui.LoadFolder(deck)
	ui.Wait()
	ui.run.picker.SetSelected(algorithms.Title("stepwise"))
	setParam(ui, "restarts", "5")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("no result: %q", ui.status.text())
	}
	a := ui.pres.Analysis
	learned := map[string]string{}
	for i, c := range a.Codes() {
		learned[a.Data.Names[i]] = c
	}

	// The deck's first six pictures and, named to sort between the third and the fourth,
	// a picture of noise of another size.
	dir := filepath.Join(t.TempDir(), "new photos")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	six := a.Data.Names[:6] // in the order the folder loads
	for _, name := range six {
		if err := os.Symlink(filepath.Join(deck, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	noise := strings.TrimSuffix(six[2], filepath.Ext(six[2])) + "b.png"
	rng := rand.New(rand.NewPCG(1, 2))
	writePNGs(t, dir, []string{noise}, func(int) image.Image {
		img := image.NewRGBA(image.Rect(0, 0, 200, 150))
		for i := range img.Pix {
			img.Pix[i] = uint8(rng.IntN(256))
		}
		return img
	})

	ui.chooseApplyFolder()
	o := ui.applyDialog
	if o == nil || ui.win.Canvas().Focused() != o.path {
		t.Fatal("the apply dialog's path field is not focused")
	}
	test.Type(o.path, dir)
	o.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	ui.Wait()
	f := ui.applied
	if f == nil {
		t.Fatalf("nothing applied: %q", ui.status.text())
	}
	t.Logf("%s; codes %v", ui.status.text(), f.Codes)
	if ui.tabs.SelectedIndex() != tabCodes || ui.codes.rows() != 7 || !strings.Contains(ui.status.text(), "1 not explained") {
		t.Fatalf("tab %d, %d rows, status %q", ui.tabs.SelectedIndex(), ui.codes.rows(), ui.status.text())
	}
	cell := func(row, col int) *widget.Label {
		o := newCodesCell()
		ui.codes.updateCell(widgetCell(row, col), o)
		return o.(*fyne.Container).Objects[1].(*widget.Label)
	}
	if name, res := cell(0, colName), cell(0, colResidual); name.Text != noise || !strings.HasPrefix(res.Text, unexplainedMark) ||
		res.Importance != widget.DangerImportance {
		t.Errorf("first row: %q, residual %q (importance %v); want the noise, marked", name.Text, res.Text, res.Importance)
	}
	for r := 1; r < 7; r++ {
		i := ui.codes.imageAt(r)
		name, code := f.Names[i], f.Codes[i]
		if strings.HasPrefix(cell(r, colResidual).Text, unexplainedMark) {
			t.Errorf("%s is marked unexplained: %s", name, f.ResidualText(i))
		}
		if code != learned[name] {
			t.Errorf("%s coded %s, learned as %s", name, code, learned[name])
		}
	}
	// Unticked, the folder's own order: the noise between the third and the fourth.
	ui.codes.firstOdd.SetChecked(false)
	if got := cell(3, colName).Text; got != noise {
		t.Errorf("in the folder's order row 4 is %q", got)
	}
	ui.codes.firstOdd.SetChecked(true)
	ui.codes.table.Select(widgetCell(0, colName))
	if txt := ui.codes.detailTxt.Text; !strings.Contains(txt, "not explained") {
		t.Errorf("detail of the noise: %q", txt)
	}

	// The Features tab counts the new images, and Show owners marks them.
	if !strings.Contains(ui.features.header.Text, "Showing the applied folder") || !ui.features.back.Visible() {
		t.Errorf("features header %q", ui.features.header.Text)
	}
	k := -1
	for j, owners := range f.Owners {
		if j != f.Base && len(owners) > 0 && len(owners) < 7 {
			k = j
			break
		}
	}
	if k < 0 {
		t.Fatalf("no feature owned by some of the new images: %v", f.Codes)
	}
	if labels := labelTexts(ui.features.cards); !slices.ContainsFunc(labels, func(s string) bool {
		return strings.HasPrefix(s, fmt.Sprintf("%d new image", len(f.Owners[k])))
	}) {
		t.Errorf("no card counts new images: %q", labels)
	}
	ui.highlightFeature(k)
	if len(ui.codes.owns) != len(f.Owners[k]) || !ui.codes.owns[ui.codes.imageAt(ui.codes.scrolledTo)] {
		t.Errorf("Show owners of #%d marked %v, first row %d; want the %d new owners", k+1, ui.codes.owns, ui.codes.scrolledTo, len(f.Owners[k]))
	}

	// Export images by feature sorts the new images.
	out := filepath.Join(t.TempDir(), sortedName(dir))
	ui.SortImages(out)
	ui.Wait()
	if !strings.HasPrefix(ui.status.text(), "Sorted the 7 images") {
		t.Fatalf("status %q", ui.status.text())
	}
	for j, owners := range f.Owners {
		entries, err := os.ReadDir(filepath.Join(out, fmt.Sprintf("feature %d", j+1)))
		switch {
		case j == f.Base:
			if err == nil {
				t.Errorf("a folder for the base")
			}
		case len(owners) == 0:
			if err == nil {
				t.Errorf("a folder for feature %d, which no new image owns", j+1)
			}
		case err != nil || len(entries) != len(owners):
			t.Errorf("feature %d: %d files (%v), want %d", j+1, len(entries), err, len(owners))
		}
	}
	for _, c := range f.CodeCounts {
		if entries, err := os.ReadDir(filepath.Join(out, "code "+c.Code)); err != nil || len(entries) != c.Count {
			t.Errorf("code %s: %d files (%v), want %d", c.Code, len(entries), err, c.Count)
		}
	}

	// A folder with nothing to code: one line, and the applied folder stays.
	ui.ApplyToFolder(t.TempDir())
	ui.Wait()
	if st := ui.status.text(); !strings.HasPrefix(st, "Could not apply the analysis") || strings.Contains(st, "\n") || ui.applied != f {
		t.Errorf("an empty folder: status %q, applied kept %v", st, ui.applied == f)
	}

	test.Tap(ui.codes.back)
	if ui.applied != nil || ui.codes.rows() != len(a.Data.Names) || ui.features.back.Visible() {
		t.Errorf("back: applied %v, %d rows", ui.applied != nil, ui.codes.rows())
	}

	// Saved and reopened, the analysis codes the folder alike.
	file := filepath.Join(t.TempDir(), "cards.featurelab")
	ui.SaveAnalysis(file)
	ui.Wait()
	ui.OpenAnalysis(file)
	ui.Wait()
	if ui.pres == nil || ui.pres.Analysis == a {
		t.Fatalf("not reopened: %q", ui.status.text())
	}
	ui.ApplyToFolder(dir)
	ui.Wait()
	if ui.applied == nil {
		t.Fatalf("the reopened analysis applied nothing: %q", ui.status.text())
	}
	if !slices.Equal(ui.applied.Codes, f.Codes) {
		t.Errorf("the reopened analysis codes %v; before %v", ui.applied.Codes, f.Codes)
	}
}

// labelTexts is the text of every label in c and its containers.
func labelTexts(c *fyne.Container) []string {
	var out []string
	for _, o := range c.Objects {
		switch o := o.(type) {
		case *widget.Label:
			out = append(out, o.Text)
		case *fyne.Container:
			out = append(out, labelTexts(o)...)
		}
	}
	return out
}
