package views

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"

	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/saved"
)

// FuzzOpenSavedAndDraw opens crafted saved analyses in the window, as File → Open
// analysis does, and draws every tab of what opened at 1024×700: whatever the file
// holds, the window ends with a result drawn or one dialog, never a panic, a hang or a
// window grown past the screen (a curve of K = 2⁶² once froze the Diagnostics tab; NaN
// features drew black and white). The seeds are a real analysis of a small folder and
// variants of it; plain `go test` runs them, `make fuzz` a few hundred more.
func FuzzOpenSavedAndDraw(f *testing.F) {
	dir := f.TempDir()
	// Six pictures, a red patch on half of them: something for stepwise to find.
	writePNGs(f, dir, []string{"a.png", "b.png", "c.png", "d.png", "e.png", "f.png"}, func(i int) image.Image {
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
	a, err := pipeline.Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: 4,
		Algorithm: "stepwise", Options: learn.Options{Restarts: 2, Seed: 1}}, nil)
	if err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(f.TempDir(), "seed"+saved.Ext)
	if err := saved.Save(a, path, pipeline.LoadChoices{PCA: "4"}); err != nil {
		f.Fatal(err)
	}
	indented, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	var compact bytes.Buffer // the variants below are made on the file without its indents
	if err := json.Compact(&compact, indented); err != nil {
		f.Fatal(err)
	}
	good := compact.Bytes()
	f.Add(good)
	for _, swap := range [][2]string{{`"k":`, `"k":4611686018427387904,"x":`}, {`"a":[`, `"a":["NaN",`},
		{`"a":[`, `"a":[1e308,`}, {`"curve":[{"k":`, `"curve":[{"k":4611686018427387904,"x":`}, {`"z":[`, `"z":["1111111111",`}, {`"names":[`, `"names":["../../x.png",`}} {
		f.Add(bytes.Replace(good, []byte(swap[0]), []byte(swap[1]), 1))
	}
	f.Add(good[:len(good)/3])
	f.Fuzz(func(t *testing.T, b []byte) {
		file := filepath.Join(t.TempDir(), "x"+saved.Ext)
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		ui := newTestUI(t)
		ui.win.Resize(fyne.NewSize(smallScreen.w, smallScreen.h))
		ui.OpenAnalysis(file)
		ui.Wait()
		if ui.pres == nil {
			if overlayText(ui.win) == "" {
				t.Fatalf("no result and no dialog; status %q", ui.status.text())
			}
			return
		}
		for i := range ui.tabs.Items {
			ui.tabs.SelectIndex(i)
			ui.win.Canvas().Capture() // draws the tab
			if s := ui.win.Canvas().Size(); s.Height > smallScreen.h+1 || s.Width > smallScreen.w+1 {
				t.Fatalf("tab %s grew the window to %v", ui.tabs.Items[i].Text, s)
			}
		}
	})
}
