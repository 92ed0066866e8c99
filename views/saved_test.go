package views

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/app"
	"featurelab/assets"
)

// TestSaveAndReopenAnAnalysis: an analysis saved from one window opens in a new one
// (a fresh app, as after closing it) with its folder, load options, algorithm,
// parameters and result, without running again; after the folder changes, opening it
// loads the folder, sets the parameters and says what changed.
func TestSaveAndReopenAnAnalysis(t *testing.T) {
	dir := t.TempDir()
	if err := assets.WriteSet(dir, "dice"); err != nil {
		t.Fatal(err)
	}
	ui := newTestUI(t)
	ui.dataset.pca.SetText("12")
	ui.LoadFolder(dir)
	ui.Wait()
	ui.run.picker.SetSelected(algorithms.Title("kfeatures"))
	setParam(ui, "k", "3")
	setParam(ui, "restarts", "4")
	setParam(ui, "seed", "7")
	ui.run.start()
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("no result: %s", ui.status.text())
	}
	saved := filepath.Join(t.TempDir(), "dice-kfeatures"+app.SavedExt)
	ui.SaveAnalysis(saved)
	ui.Wait()
	if _, err := os.Stat(saved); err != nil {
		t.Fatalf("not saved (%s): %v", ui.status.text(), err)
	}
	want := ui.pres.Analysis

	again := newTestUI(t)
	again.OpenAnalysis(saved)
	again.Wait()
	if again.pres == nil {
		t.Fatalf("the saved analysis is not shown: %s", again.status.text())
	}
	got := again.pres.Analysis
	if got.Algorithm.Name != "kfeatures" || got.Source.Dir != dir || got.PCA.D != 12 || !slices.Equal(got.Codes(), want.Codes()) {
		t.Errorf("reopened %s on %s with D = %d, codes equal %v", got.Algorithm.Name, got.Source.Dir, got.PCA.D, slices.Equal(got.Codes(), want.Codes()))
	}
	if again.run.algo != "kfeatures" || again.run.byKey["k"].entry.Text != "3" ||
		again.run.byKey["restarts"].entry.Text != "4" || again.run.byKey["seed"].entry.Text != "7" ||
		again.dataset.pca.Text != "12" {
		t.Errorf("fields: algorithm %s, K %s, restarts %s, seed %s, PCA %s", again.run.algo,
			again.run.byKey["k"].entry.Text, again.run.byKey["restarts"].entry.Text,
			again.run.byKey["seed"].entry.Text, again.dataset.pca.Text)
	}
	if !strings.HasPrefix(again.status.text(), "Opened the saved K-features analysis") {
		t.Errorf("status %q", again.status.text())
	}

	// The folder changes: one image fewer.
	if err := os.Remove(filepath.Join(dir, want.Data.Names[0])); err != nil {
		t.Fatal(err)
	}
	changed := newTestUI(t)
	changed.OpenAnalysis(saved)
	changed.Wait()
	if changed.pres != nil {
		t.Error("a result is shown for a folder that changed")
	}
	if n := changed.dataset.grid.Length(); n != len(want.Data.Names)-1 {
		t.Errorf("the folder as it is was not loaded: %d images", n)
	}
	if msg := overlayText(changed.win); !strings.Contains(msg, "1 image removed") || !strings.Contains(msg, "press Run") {
		t.Errorf("dialog %q", msg)
	}
	if changed.run.algo != "kfeatures" || changed.run.byKey["k"].entry.Text != "3" {
		t.Errorf("parameters not set: %s, K %s", changed.run.algo, changed.run.byKey["k"].entry.Text)
	}
}

// TestOpeningABrokenAnalysisSaysWhy: a file that is not a saved analysis gets one line
// naming it and the cause, and the window keeps what it shows.
func TestOpeningABrokenAnalysisSaysWhy(t *testing.T) {
	ui := loadedUI(t)
	path := filepath.Join(t.TempDir(), "notes"+app.SavedExt)
	if err := os.WriteFile(path, []byte("shopping list"), 0o644); err != nil {
		t.Fatal(err)
	}
	ui.OpenAnalysis(path)
	ui.Wait()
	if msg := overlayText(ui.win); !strings.Contains(msg, path) {
		t.Errorf("dialog %q does not name the file", msg)
	}
	if ui.dataset.prepared == nil || ui.dataset.source.Sample != "tabletop" {
		t.Errorf("the data set shown changed to %v", ui.dataset.source)
	}
}

// TestReopenedIBPKeepsItsPrior: an IBP analysis saved before the prior on α had a
// choice (a version-1 file) ran the papers' Gamma prior; reopened, its form says so,
// not the tied prior that is now the default, so that Run runs it again as it ran.
func TestReopenedIBPKeepsItsPrior(t *testing.T) {
	ui := newTestUI(t)
	ui.OpenAnalysis(filepath.Join("..", "app", "saved", "testdata", "v1-dice-ibp"+app.SavedExt))
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("not shown: %s", ui.status.text())
	}
	if ui.run.algo != "ibp" || ui.run.byKey["alpha-prior"].text() != app.AlphaGamma {
		t.Errorf("algorithm %s, prior on α %q; want ibp, %q", ui.run.algo, ui.run.byKey["alpha-prior"].text(), app.AlphaGamma)
	}
}
