package views

import (
	"image"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"featurelab/algorithms"
	"featurelab/app"
)

// TestShortcutsRunCancelAndShowInMenus: Ctrl+R and Ctrl+Enter run, Esc cancels, and the
// menus show Open (Ctrl+O), Export grid (Ctrl+E), Run and Cancel with their shortcuts.
func TestShortcutsRunCancelAndShowInMenus(t *testing.T) {
	ui := smallUI(t)
	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "3")
	setParam(ui, "restarts", "2")
	for _, sc := range []fyne.Shortcut{shortcutRun, shortcutRunEnter} {
		ui.pres = nil
		ui.shortcuts()[sc]()
		ui.Wait()
		if ui.pres == nil || ui.pres.Analysis.Algorithm.Name != "kmeans" {
			t.Fatalf("%s did not run K-means (status %q)", sc.ShortcutName(), ui.status.text())
		}
	}
	// Esc reaches the window as a key: it cancels a run started after it is queued.
	first := ui.pres
	ui.run.start()
	ui.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	ui.Wait()
	if ui.pres != first {
		t.Fatal("Esc did not cancel the run")
	}
	// The same after choosing the algorithm in its dropdown, which keeps the focus: a
	// key goes to the focused widget when there is one, as the window's driver sends it.
	c := ui.win.Canvas()
	c.Focus(ui.run.picker)
	ui.run.start()
	esc := &fyne.KeyEvent{Name: fyne.KeyEscape}
	if f := c.Focused(); f != nil {
		f.TypedKey(esc)
	} else {
		c.OnTypedKey()(esc)
	}
	ui.Wait()
	if ui.pres != first {
		t.Fatalf("Esc after the dropdown did not cancel the run (focus on %T)", c.Focused())
	}
	// And with a field clicked into during the run (the run panel's are disabled then; the
	// Dataset tab's are not), which keeps the keys typed into it.
	ui.tabs.SelectIndex(tabDataset)
	for _, field := range []fyne.Focusable{ui.dataset.size, ui.dataset.pca} {
		ui.run.start()
		c.Focus(field)
		if c.Focused() == nil {
			t.Fatalf("%T cannot take the focus during a run", field)
		}
		c.Focused().TypedKey(esc)
		ui.Wait()
		if ui.pres != first || c.Focused() != nil {
			t.Fatalf("Esc in the field %T did not cancel the run or left the focus on %T", field, c.Focused())
		}
	}

	shown := map[string]fyne.Shortcut{}
	for _, m := range ui.mainMenu().Items {
		for _, it := range m.Items {
			if it.Shortcut != nil {
				shown[it.Label] = it.Shortcut
			}
		}
	}
	for label, want := range map[string]fyne.Shortcut{
		"Open folder…": shortcutOpen, "Export Feature grid (PNG)…": shortcutExportGrid,
		"Run": shortcutRun, "Cancel": shortcutCancel,
	} {
		if shown[label] != want {
			t.Errorf("menu item %q shows %v, want %v", label, shown[label], want)
		}
	}
}

// TestExportsStartOutsideTheImageFolder: the save dialogs start in the home folder, not
// the folder of the images, then in the folder of the last export; exports are 0644.
func TestExportsStartOutsideTheImageFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	ui := loadedUI(t)
	if got := ui.exportFolder(); got != home {
		t.Fatalf("first export starts in %q, want the home folder %q", got, home)
	}
	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "3")
	setParam(ui, "restarts", "2")
	ui.run.start()
	ui.Wait()
	dir := t.TempDir()
	path := filepath.Join(dir, "codes.csv")
	ui.Export(app.CodesFile, path)
	ui.Wait()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := st.Mode().Perm(); mode != 0o644 {
		t.Errorf("export written %v, want 0644", mode)
	}
	if got := ui.exportFolder(); got != dir {
		t.Fatalf("the next export starts in %q, want the last export's folder %q", got, dir)
	}
}

// TestDroppedFolderLoadsAndIsRecent: a folder dropped on the window loads, as does the
// folder of a dropped file; both join File → Recent folders, the newest first.
func TestDroppedFolderLoadsAndIsRecent(t *testing.T) {
	ui := newTestUI(t)
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		writePNGs(t, dir, []string{"x.png", "y.png", "z.png"}, func(i int) image.Image {
			img := image.NewGray(image.Rect(0, 0, 8, 8))
			img.Pix[i] = 255
			return img
		})
	}
	ui.dropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(a)})
	ui.Wait()
	if ui.dataset.source.Dir != a || ui.dataset.grid.Length() != 3 {
		t.Fatalf("after dropping %s: source %v, %d images", a, ui.dataset.source, ui.dataset.grid.Length())
	}
	ui.dropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(filepath.Join(b, "y.png"))})
	ui.Wait()
	if ui.dataset.source.Dir != b {
		t.Fatalf("dropping a file of %s loaded %v", b, ui.dataset.source)
	}
	var recent []string
	for _, m := range ui.mainMenu().Items[0].Items {
		if m.Label == "Recent folders" && m.ChildMenu != nil {
			for _, it := range m.ChildMenu.Items {
				recent = append(recent, it.Label)
			}
		}
	}
	if len(recent) != 2 || recent[0] != b || recent[1] != a {
		t.Fatalf("recent folders %v, want [%s %s]", recent, b, a)
	}
}

// TestNothingToExportLeavesNoDialog: Ctrl+E and Save analysis with no result say so in
// the status bar; no dialog is left behind to cover what a later run shows.
func TestNothingToExportLeavesNoDialog(t *testing.T) {
	ui := loadedUI(t)
	ui.shortcuts()[shortcutExportGrid]()
	if got := ui.status.text(); got != "Nothing to export: run an algorithm first" {
		t.Errorf("status %q", got)
	}
	ui.shortcuts()[shortcutSaveAnalysis]()
	if got := ui.status.text(); got != "Nothing to save: run an algorithm first" {
		t.Errorf("status %q", got)
	}
	if top := ui.win.Canvas().Overlays().Top(); top != nil {
		t.Errorf("a dialog is left on top: %T", top)
	}
}
