package views

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"

	"featurelab/app"
)

// export is one thing the window can save: a name for menus, a default file name, and the
// app function that writes it; minor is set when the Features tab shows the minor
// features, which the grid then draws too.
type export struct {
	label string
	file  string
	ext   string
	write func(a *app.Analysis, path string, minor bool) error
}

var exports = []export{
	{"Feature grid (PNG)…", app.FeaturesFile, ".png", func(a *app.Analysis, p string, minor bool) error {
		return app.ExportFeatureGrid(a, p, true, minor)
	}},
	{"Codes (CSV)…", app.CodesFile, ".csv", func(a *app.Analysis, p string, _ bool) error { return app.ExportCodes(a, p, true) }},
	{"Result (JSON)…", app.ResultFile, ".json", func(a *app.Analysis, p string, _ bool) error { return app.ExportResult(a, p, true) }},
}

func (ui *UI) mainMenu() *fyne.MainMenu {
	item := func(label string, sc fyne.Shortcut, do func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, ui.unlessDialog(do))
		it.Shortcut = sc
		return it
	}
	file := fyne.NewMenu("File", item("Open folder…", shortcutOpen, ui.dataset.chooseFolder))
	recent := fyne.NewMenuItem("Recent folders", nil)
	for _, dir := range ui.fyneApp.Preferences().StringList(prefRecentFolders) {
		recent.ChildMenu = appendItem(recent.ChildMenu, fyne.NewMenuItem(dir, ui.unlessDialog(func() { ui.LoadFolder(dir) })))
	}
	if recent.ChildMenu == nil {
		recent.Disabled = true
	}
	file.Items = append(file.Items, recent, ui.recentMenu(), fyne.NewMenuItemSeparator(),
		item("Open analysis…", nil, ui.chooseOpenAnalysis),
		item("Save analysis…", shortcutSaveAnalysis, ui.chooseSaveAnalysis),
		item("Apply analysis to folder…", nil, ui.chooseApplyFolder),
		fyne.NewMenuItemSeparator())
	for i, e := range exports {
		var sc fyne.Shortcut
		if i == 0 {
			sc = shortcutExportGrid
		}
		file.Items = append(file.Items, item("Export "+e.label, sc, func() { ui.chooseExport(e) }))
	}
	file.Items = append(file.Items, item("Export images by feature…", nil, ui.chooseSortImages))
	analysis := fyne.NewMenu("Analysis",
		item("Run", shortcutRun, ui.runShownTab),
		item("Cancel", shortcutCancel, ui.cancelAll))
	samples := fyne.NewMenu("Samples")
	for _, name := range ui.dataset.samples.Options {
		samples.Items = append(samples.Items, fyne.NewMenuItem(name, ui.unlessDialog(func() { ui.LoadSample(name) })))
	}
	help := fyne.NewMenu("Help", item(aboutTitle, nil, ui.showAbout))
	return fyne.NewMainMenu(file, analysis, samples, help)
}

// appendItem adds an item to a child menu, making the menu when there is none.
func appendItem(m *fyne.Menu, it *fyne.MenuItem) *fyne.Menu {
	if m == nil {
		return fyne.NewMenu("", it)
	}
	m.Items = append(m.Items, it)
	return m
}

// refreshMenu rebuilds the window's menus (the recent folders change); a window without
// menus, as in tests, keeps none.
func (ui *UI) refreshMenu() {
	if ui.win.MainMenu() != nil {
		ui.win.SetMainMenu(ui.mainMenu())
	}
}

// The window's shortcuts; the menus show them. Ctrl+Enter runs too, as in forms where
// Enter submits.
var (
	shortcutOpen         = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutRun          = &desktop.CustomShortcut{KeyName: fyne.KeyR, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutRunEnter     = &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutExportGrid   = &desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutSaveAnalysis = &desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutCancel       = &desktop.CustomShortcut{KeyName: fyne.KeyEscape}
)

// shortcuts binds each shortcut to what it does; none acts while a dialog is showing.
func (ui *UI) shortcuts() map[fyne.Shortcut]func() {
	return map[fyne.Shortcut]func(){
		shortcutOpen:         ui.unlessDialog(ui.dataset.chooseFolder),
		shortcutRun:          ui.unlessDialog(ui.runShownTab),
		shortcutRunEnter:     ui.unlessDialog(ui.runShownTab),
		shortcutExportGrid:   ui.unlessDialog(func() { ui.chooseExport(exports[0]) }),
		shortcutSaveAnalysis: ui.unlessDialog(ui.chooseSaveAnalysis),
	}
}

// addShortcuts registers the shortcuts on the window, and the keys a canvas gets as
// keys, not shortcuts: Esc for Cancel, Enter for a dialog's default (UI.typedKey).
func (ui *UI) addShortcuts() {
	c := ui.win.Canvas()
	for sc, do := range ui.shortcuts() {
		c.AddShortcut(sc, func(fyne.Shortcut) { do() })
	}
	c.SetOnTypedKey(ui.typedKey)
}

// cancelAll cancels whatever runs: a load, a run, a segmentation.
func (ui *UI) cancelAll() {
	ui.jobs.Cancel("load")
	ui.jobs.Cancel("run")
	ui.jobs.Cancel("segment")
	ui.jobs.Cancel(cosegmentKey)
	ui.jobs.Cancel(applyKey)
}

// chooseExport asks where to save (Fyne's save dialog confirms before replacing a file)
// and writes the export there.
func (ui *UI) chooseExport(e export) {
	ui.askSavePath("Nothing to export", e.file, e.ext, func(path string) { ui.Export(e.file, path) })
}

// askSavePath asks where to save something of the shown result, starting in the export
// folder with the file name name, and hands the path chosen to save; with no result it
// says nothing (title) can be saved yet.
func (ui *UI) askSavePath(nothing, name, ext string, save func(path string)) {
	if ui.pres == nil {
		// A line in the status bar, not a dialog: a dialog here outlived the run that
		// followed it, and Enter did not close it.
		ui.status.idle(nothing + ": run an algorithm first")
		return
	}
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			dialog.ShowError(err, ui.win)
			return
		}
		if w == nil {
			return // cancelled
		}
		path := w.URI().Path()
		w.Close()
		save(path)
	}, ui.win)
	d.SetFileName(name)
	d.SetFilter(storage.NewExtensionFileFilter([]string{ext}))
	if l, err := listableURI(ui.exportFolder()); err == nil {
		d.SetLocation(l)
	}
	d.Show()
}

// cancelledText is the status line after what (a run, a segmentation) was cancelled:
// the previous result is kept when there is one; with none, "kept" misled.
func cancelledText(what string, previous bool) string {
	if previous {
		return what + " cancelled; the previous result is kept"
	}
	return what + " cancelled; there is no result yet"
}

// jobSucceeded says whether a background job ended well; when it did not, the status
// bar says cancelled or failed, and a failure's error is shown in a dialog.
func (ui *UI) jobSucceeded(err error, cancelled, failed string) bool {
	switch {
	case errors.Is(err, context.Canceled):
		ui.status.idle(cancelled)
		return false
	case err != nil:
		ui.status.idle(failed)
		dialog.ShowError(err, ui.win)
		return false
	}
	return true
}

// saveImagesTo writes the images of what (a segmentation, a co-segmentation) to dir in
// the background, and remembers dir as the folder the next export starts in.
func (ui *UI) saveImagesTo(dir, what string, write func(dir string) error) {
	ui.saveInBackground(func() error { return write(dir) }, "Saved the "+what+" to "+dir, "Saving the "+what+" failed")
	ui.fyneApp.Preferences().SetString(prefExportFolder, dir)
}

// askExportFolder asks for a folder to write images into, starting in the last export
// folder, and calls save with it; when existing(dir) names files there that save would
// replace, it asks first.
func (ui *UI) askExportFolder(existing func(dir string) []string, save func(dir string)) {
	d := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
		if err != nil {
			dialog.ShowError(err, ui.win)
			return
		}
		if uri == nil {
			return // cancelled
		}
		dir := uri.Path()
		if names := existing(dir); len(names) > 0 {
			dialog.ShowConfirm("Replace files?", fmt.Sprintf("%s already has %s. Replace them?", dir, strings.Join(names, ", ")),
				func(ok bool) {
					if ok {
						save(dir)
					}
				}, ui.win)
			return
		}
		save(dir)
	}, ui.win)
	if l, err := listableURI(ui.exportFolder()); err == nil {
		d.SetLocation(l)
	}
	d.Show()
	d.Resize(fyne.NewSize(800, 560))
}

// Export writes the shown result's export named by file (features.png, codes.csv or
// result.json) to path in the background.
func (ui *UI) Export(file, path string) {
	if ui.pres == nil {
		return
	}
	a := ui.pres.Analysis
	if f := ui.applied; f != nil && file == app.CodesFile {
		// The codes shown are the applied folder's: those are what the CSV holds.
		ui.saveInBackground(func() error { return app.ExportEncodedCodes(path, f.Applied.Codes, true) }, "Saved "+path, "Export failed")
		ui.fyneApp.Preferences().SetString(prefExportFolder, filepath.Dir(path))
		return
	}
	for _, e := range exports {
		if e.file != file {
			continue
		}
		minor := ui.features.minor.shown
		ui.saveInBackground(func() error { return e.write(a, path, minor) }, "Saved "+path, "Export failed")
		ui.fyneApp.Preferences().SetString(prefExportFolder, filepath.Dir(path))
	}
}

// prefExportFolder remembers the folder of the last export.
const prefExportFolder = "lastExportFolder"

// exportFolder is where a save dialog starts: the folder of the last export, else the
// home folder. Never the image folder by default: an export saved there would join the
// data set on the next load.
func (ui *UI) exportFolder() string {
	if last := ui.fyneApp.Preferences().String(prefExportFolder); last != "" {
		if st, err := os.Stat(last); err == nil && st.IsDir() {
			return last
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	return "."
}

// saveInBackground runs write as an export job and says on the status bar how it went:
// saved on success; failed, with the error in a dialog, otherwise.
func (ui *UI) saveInBackground(write func() error, saved, failed string) {
	ui.jobs.Start("export", func(context.Context) {
		err := write()
		fyne.Do(func() {
			if err != nil {
				ui.status.idle(failed)
				dialog.ShowError(err, ui.win)
				return
			}
			ui.status.idle(saved)
		})
	})
}
