package views

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"featurelab/algorithms"
)

// TestExportImagesByFeature: after a run on a folder, File → Export images by feature
// writes a folder per feature and per code beside, never inside, the image folder; with
// the built-in sample, or no result, the status bar says why there is nothing to sort.
func TestExportImagesByFeature(t *testing.T) {
	ui := newTestUI(t)
	ui.SortImages(t.TempDir())
	if !strings.Contains(ui.status.text(), "run an algorithm first") {
		t.Errorf("with no result: %q", ui.status.text())
	}
	root := t.TempDir()
	if err := writeSampleTo(root, "dice"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "dice")
	ui.LoadFolder(dir)
	ui.Wait()
	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "3")
	setParam(ui, "restarts", "5")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("no result: %q", ui.status.text())
	}

	ui.SortImages(filepath.Join(dir, "sorted"))
	ui.Wait()
	if !strings.Contains(ui.status.text(), "outside") {
		t.Errorf("sorting into the image folder: %q", ui.status.text())
	}
	if _, err := os.Stat(filepath.Join(dir, "sorted")); err == nil {
		t.Error("a folder was written inside the image folder")
	}

	out := filepath.Join(t.TempDir(), sortedName(dir))
	ui.SortImages(out)
	ui.Wait()
	if !strings.HasPrefix(ui.status.text(), "Sorted the ") {
		t.Fatalf("status %q", ui.status.text())
	}
	total := 0
	for k := 1; k <= 3; k++ {
		entries, err := os.ReadDir(filepath.Join(out, "feature "+string(rune('0'+k))))
		if err != nil {
			t.Fatal(err)
		}
		total += len(entries)
	}
	if total != len(ui.pres.Analysis.Data.Names) {
		t.Errorf("%d images in the feature folders of a clustering of %d", total, len(ui.pres.Analysis.Data.Names))
	}
}
