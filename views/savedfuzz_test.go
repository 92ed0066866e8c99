package views

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"featurelab/algorithms"
	"featurelab/app"
	"featurelab/app/result"
	"featurelab/internal/accuracy"
)

// FuzzOpenSavedAndDraw opens crafted saved analyses in the window, as File → Open
// analysis does, and draws every tab of what opened at 1024×700: whatever the file
// holds, the window ends with a result drawn or one dialog, never a panic, a hang or a
// window grown past the screen (a curve of K = 2⁶² once froze the Diagnostics tab; NaN
// features drew black and white). The seeds are a real analysis of a small folder and
// variants of it; plain `go test` runs them, in the pass without the race detector (a
// window drawn whole ten times over, which it only makes slower: the opening job's
// goroutines are raced by TestSaveAndReopenAnAnalysis), `make fuzz` a few hundred more.
func FuzzOpenSavedAndDraw(f *testing.F) {
	accuracy.Check(f)
	a := redPatchAnalysis(f)
	path := filepath.Join(f.TempDir(), "seed"+app.SavedExt)
	if err := app.SaveAnalysis(a, path, app.LoadChoices{PCA: "4"}); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(path) // compact JSON, which the variants below are made on
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	for _, swap := range [][2]string{{`"k":`, `"k":4611686018427387904,"x":`}, {`"a":[[`, `"a":[["NaN",`},
		{`"a":[[`, `"a":[[1e308,`}, {`"other_reading":{"z":`, `"other_reading":{"a":["NaN"],"z":`},
		{`"curve":[{"k":`, `"curve":[{"k":4611686018427387904,"x":`}, {`"z":[`, `"z":["1111111111",`}, {`"names":[`, `"names":["../../x.png",`}} {
		f.Add(bytes.Replace(good, []byte(swap[0]), []byte(swap[1]), 1))
	}
	f.Add(good[:len(good)/3])
	f.Add(infiniteObjectivesFile(f, a))
	f.Fuzz(func(t *testing.T, b []byte) {
		file := filepath.Join(t.TempDir(), "x"+app.SavedExt)
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if ui := openAndDraw(t, file); ui.pres == nil && overlayText(ui.win) == "" {
			t.Fatalf("no result and no dialog; status %q", ui.status.text())
		}
	})
}

// TestSavedInfiniteObjectivesOpen: a run whose objective and first restart never came
// to a finite value is saved as result.json writes it, −1, and opens, the restarts plot
// offered. Every tab of it is drawn by FuzzOpenSavedAndDraw, whose seeds include the same
// file.
func TestSavedInfiniteObjectivesOpen(t *testing.T) {
	file := filepath.Join(t.TempDir(), "infinite"+app.SavedExt)
	if err := os.WriteFile(file, infiniteObjectivesFile(t, redPatchAnalysis(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	ui := newTestUI(t)
	ui.win.Resize(fyne.NewSize(smallScreen.w, smallScreen.h))
	ui.OpenAnalysis(file)
	ui.Wait()
	if ui.pres == nil || !strings.HasPrefix(ui.status.text(), "Opened the saved") {
		t.Fatalf("not opened: status %q, dialog %q", ui.status.text(), overlayText(ui.win))
	}
	r := ui.pres.Analysis.Result
	if r.Objective != -1 || r.RestartObjectives[0] != -1 || !slices.Contains(app.PlotNames(ui.pres.Analysis.Prepared, ui.pres.Analysis), app.PlotRestarts) {
		t.Errorf("objective %v, restarts %v", r.Objective, r.RestartObjectives)
	}
}

// openAndDraw opens the saved analysis file in a new window of 1024×700, as File → Open
// analysis does, and when a result is shown draws each of its tabs, none of which may
// grow the window past the screen.
func openAndDraw(t *testing.T, file string) testUI {
	t.Helper()
	ui := newTestUI(t)
	ui.win.Resize(fyne.NewSize(smallScreen.w, smallScreen.h))
	ui.OpenAnalysis(file)
	ui.Wait()
	if ui.pres == nil {
		return ui
	}
	for i := range ui.tabs.Items {
		ui.tabs.SelectIndex(i)
		ui.win.Canvas().Capture() // draws the tab
		if s := ui.win.Canvas().Size(); s.Height > smallScreen.h+1 || s.Width > smallScreen.w+1 {
			t.Fatalf("tab %s grew the window to %v", ui.tabs.Items[i].Text, s)
		}
	}
	return ui
}

// redPatchAnalysis runs stepwise on six pictures, a red patch on half of them.
func redPatchAnalysis(tb testing.TB) *app.Analysis {
	tb.Helper()
	dir := tb.TempDir()
	writePNGs(tb, dir, []string{"a.png", "b.png", "c.png", "d.png", "e.png", "f.png"}, func(i int) image.Image {
		img := image.NewRGBA(image.Rect(0, 0, 16, 12))
		for p := range img.Pix {
			img.Pix[p] = uint8(40*i + p%7*9)
		}
		if i%2 == 0 {
			for y := 2; y < 6; y++ {
				for x := 2; x < 8; x++ {
					img.Set(x, y, color.RGBA{255, 0, 0, 255})
				}
			}
		}
		return img
	})
	a, err := result.Analyze(context.Background(), app.Request{Source: app.Source{Dir: dir}, PCA: 4,
		Algorithm: algorithms.MustLookup("stepwise"), Options: app.RunOptions{Restarts: 2, Seed: 1}}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return a
}

// infiniteObjectivesFile is a saved with its objective and first restart's objective
// +Inf and its penalised objective NaN, which the file holds as −1.
func infiniteObjectivesFile(tb testing.TB, a *app.Analysis) []byte {
	tb.Helper()
	inf, r := *a, *a.Result
	r.Objective, r.BPObjective = math.Inf(1), math.NaN()
	r.RestartObjectives = append([]float64{math.Inf(1)}, a.Result.RestartObjectives[1:]...)
	inf.Result = &r
	path := filepath.Join(tb.TempDir(), "infinite"+app.SavedExt)
	if err := app.SaveAnalysis(&inf, path, app.LoadChoices{PCA: "4"}); err != nil {
		tb.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"objective":-1,`)) || !bytes.Contains(b, []byte(`"restart_objectives":[-1,`)) {
		tb.Fatal("the infinite objectives are not written as -1")
	}
	return b
}
