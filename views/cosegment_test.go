package views

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestCosegmentationMarksAClusterInEveryImage: a folder of images painted from one
// palette of four colours, each image two or three bands of them, co-segments in the
// window into four global clusters (bands of 48 or 32 pixels, whole cells of 8); choosing one in the legend marks its pixels in
// exactly the images that use it, Show all clusters undoes that, the images save, and a
// new folder clears the result.
func TestCosegmentationMarksAClusterInEveryImage(t *testing.T) {
	palette := []color.NRGBA{{200, 30, 30, 255}, {30, 160, 40, 255}, {40, 60, 200, 255}, {240, 240, 240, 255}}
	uses := [][]int{{0, 1}, {1, 2, 3}, {0, 3}, {2, 0, 1}, {3, 2}, {1, 3, 0}}
	dir := t.TempDir()
	names := make([]string, len(uses))
	for i := range names {
		names[i] = fmt.Sprintf("img%d.png", i)
	}
	writePNGs(t, dir, names, func(i int) image.Image {
		img := image.NewNRGBA(image.Rect(0, 0, 96, 48))
		for y := 0; y < 48; y++ {
			for x := 0; x < 96; x++ {
				img.SetNRGBA(x, y, palette[uses[i][x*len(uses[i])/96]])
			}
		}
		return img
	})
	ui := newTestUI(t)
	ui.LoadFolder(dir)
	ui.Wait()
	v := ui.coseg
	ui.tabs.SelectIndex(tabCosegmentation)
	if v.runBtn.Disabled() {
		t.Fatalf("Co-segment is disabled with a folder open: %s", v.message.Text)
	}
	test.Tap(v.runBtn)
	ui.Wait()
	if v.result == nil || len(v.entries) != len(palette) || v.grid.Length() != len(uses) {
		t.Fatalf("after Co-segment: result %v, %d legend entries, %d tiles; status %q", v.result != nil, len(v.entries), v.grid.Length(), ui.status.text())
	}
	if st := ui.status.text(); !strings.Contains(st, "4 global clusters") || !strings.Contains(st, "segment price") || strings.Contains(st, "λ") {
		t.Errorf("status %q: want the clusters and the prices in words", st)
	}
	if txt := v.infoFig.text(); !v.infoFig.Visible() || !strings.Contains(txt, "objective: ") || !strings.Contains(txt, "cluster price") {
		t.Errorf("the figures' info mark (shown %v) says %q", v.infoFig.Visible(), txt)
	}
	// Images are in load order (sorted names); each cluster's tile colour must appear
	// in exactly the images whose palette has the cluster's colour.
	for row, e := range v.entries {
		v.legend.Select(row)
		if v.highlight != e.Cluster || v.allBtn.Disabled() {
			t.Fatalf("legend row %d: highlight %d, want %d", row, v.highlight, e.Cluster)
		}
		for i := range uses {
			name := v.result.Names[i]
			marked := hasColour(v.tile(i), e.Colour)
			var want bool
			for _, c := range uses[indexOf(names, name)] {
				want = want || closeColour(palette[c], e.Mean)
			}
			if marked != want {
				t.Errorf("cluster of mean %v: %s marked %v, uses the colour %v", e.Mean, name, marked, want)
			}
		}
	}
	test.Tap(v.allBtn)
	if v.highlight != -1 || !v.allBtn.Disabled() {
		t.Fatalf("after Show all clusters: highlight %d", v.highlight)
	}
	out := t.TempDir()
	ui.SaveCosegmentation(out)
	ui.Wait()
	if _, err := os.Stat(filepath.Join(out, "cosegments.png")); err != nil {
		t.Fatalf("saving: %v (status %q)", err, ui.status.text())
	}
	if got := v.result.ExistingOutputs(out); len(got) != 2 {
		t.Errorf("existing outputs after saving: %v", got)
	}
	ui.LoadSample("dice")
	ui.Wait()
	if v.result != nil || v.grid.Length() != 0 || len(v.entries) != 0 {
		t.Fatal("a new data set kept the previous co-segmentation")
	}
}

// hasColour says whether any pixel of img is c.
func hasColour(img image.Image, c color.NRGBA) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) == c {
				return true
			}
		}
	}
	return false
}

// closeColour says whether two colours are within 8 of each other in every channel.
func closeColour(a, b color.NRGBA) bool {
	d := func(x, y uint8) bool { return x-y < 8 || y-x < 8 }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// TestCosegmentationBadFieldAndCancel: a bad field disables Co-segment with its message;
// Cancel, and the window's Esc (cancelAll), stop a co-segmentation and keep the last one.
func TestCosegmentationBadFieldAndCancel(t *testing.T) {
	ui := smallUI(t)
	v := ui.coseg
	setEntry(v.byKey["cell"].entry, "0")
	if !v.runBtn.Disabled() || !strings.Contains(v.message.Text, "cell must be a whole number in [1, 4096]") {
		t.Fatalf("cell 0: Co-segment enabled %v, message %q", !v.runBtn.Disabled(), v.message.Text)
	}
	setEntry(v.byKey["cell"].entry, "16")
	setEntry(v.byKey["lambda-global"].entry, "")
	if v.runBtn.Disabled() {
		t.Fatalf("Co-segment stays disabled after the mend: %q", v.message.Text)
	}
	for _, stop := range []func(){func() { test.Tap(ui.status.cancel) }, ui.cancelAll} {
		test.Tap(v.runBtn)
		stop()
		ui.Wait()
		if v.result != nil || ui.status.text() != "Co-segmentation cancelled; there is no result yet" || v.runBtn.Disabled() {
			t.Fatalf("after cancel: result %v, status %q", v.result != nil, ui.status.text())
		}
	}
	test.Tap(v.runBtn)
	ui.Wait()
	if opt, err := v.options(); v.result == nil || err != nil || opt.Cell != 16 {
		t.Fatalf("after Co-segment: result %v, options %+v, %v", v.result != nil, opt, err)
	}
}
