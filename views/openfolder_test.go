package views

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestOpenFolderByTypingItsPath: Ctrl+O opens a dialog with the path field focused and
// holding the last folder; a path typed there with Enter loads (~ is the home folder, a
// file's path loads its folder), and one that is not a folder says so and keeps the
// dialog open.
func TestOpenFolderByTypingItsPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := filepath.Join(home, "holiday photos")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writePNGs(t, dir, []string{"a.png", "b.png", "c.png"}, func(i int) image.Image {
		img := image.NewGray(image.Rect(0, 0, 8, 8))
		img.Pix[i] = 255
		return img
	})
	ui := newTestUI(t)
	for _, tc := range []struct {
		typed   string
		wantDir string // "" = the dialog stays with a message
	}{
		{filepath.Join(home, "nowhere"), ""},
		{"~/holiday photos", dir},
		{`"` + filepath.Join(dir, "b.png") + `"`, dir},
		{"  " + dir + "  ", dir},
		{"file://" + strings.ReplaceAll(dir, " ", "%20"), dir},
	} {
		ui.dataset.source.Dir = ""
		ui.shortcuts()[shortcutOpen]()
		o := ui.dataset.openDialog
		if focused := ui.win.Canvas().Focused(); focused != o.path {
			t.Fatalf("the path field is not focused (%T is)", focused)
		}
		test.Type(o.path, tc.typed) // over the last folder, which the field holds selected
		o.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		ui.Wait()
		if tc.wantDir == "" {
			if !o.message.Visible() || !strings.Contains(o.message.Text, "no such folder") {
				t.Errorf("%q: message %q (shown %v)", tc.typed, o.message.Text, o.message.Visible())
			}
			if !strings.Contains(overlayText(ui.win), "Type or paste the path") {
				t.Errorf("%q: the dialog closed", tc.typed)
			}
			o.d.Hide()
			continue
		}
		if ui.dataset.source.Dir != tc.wantDir || ui.dataset.grid.Length() != 3 {
			t.Errorf("%q loaded %q with %d images, want %q with 3", tc.typed, ui.dataset.source.Dir, ui.dataset.grid.Length(), tc.wantDir)
		}
		if got := ui.fyneApp.Preferences().String(prefLastFolder); got != dir {
			t.Errorf("last folder %q", got)
		}
	}
	ui.shortcuts()[shortcutOpen]()
	o := ui.dataset.openDialog
	if got := o.path.Text; got != dir || o.path.SelectedText() != dir {
		t.Errorf("the path field starts at %q with %q selected, want the last folder %q, all selected", got, o.path.SelectedText(), dir)
	}
	// Typing replaces it, rather than landing in front of it.
	test.Type(o.path, "~/holiday photos")
	if o.path.Text != "~/holiday photos" {
		t.Errorf("typed over the last folder, the field reads %q", o.path.Text)
	}
}

// TestAFolderOfOnePictureOffersToSegmentIt: a folder with a single picture cannot be
// learned from, so opening it keeps the data set there was and offers to segment the
// picture; "Segment it" opens it in the Segmentation tab and segments it there.
func TestAFolderOfOnePictureOffersToSegmentIt(t *testing.T) {
	ui := loadedUI(t)
	before := ui.dataset.prepared
	dir := t.TempDir()
	writePNGs(t, dir, []string{"only.png"}, func(int) image.Image {
		img := image.NewRGBA(image.Rect(0, 0, 48, 32))
		for i := range img.Pix {
			img.Pix[i] = uint8(i * 7)
		}
		return img
	})
	ui.LoadFolder(dir)
	ui.Wait()
	d := ui.dataset.oneImage
	if d == nil || !strings.Contains(overlayText(ui.win), "only 1 usable image (only.png)") {
		t.Fatalf("no offer to segment the picture; dialog text %q", overlayText(ui.win))
	}
	if ui.dataset.prepared != before {
		t.Fatal("the data set open before was dropped")
	}
	d.Confirm()
	ui.Wait()
	want := openedPrefix + filepath.Join(dir, "only.png")
	if ui.tabs.SelectedIndex() != tabSegmentation || ui.segment.image.Selected != want {
		t.Fatalf("tab %d, picture %q; want the Segmentation tab with %q", ui.tabs.SelectedIndex(), ui.segment.image.Selected, want)
	}
	test.Tap(ui.segment.runBtn)
	ui.Wait()
	if ui.segment.result == nil {
		t.Fatalf("not segmented: %s", ui.status.text())
	}
}
