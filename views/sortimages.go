package views

import (
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"featurelab/app"
)

// chooseSortImages asks for the folder in which to sort the shown result's images by
// feature and by code (SortImages).
func (ui *UI) chooseSortImages() {
	if why := ui.cannotSort(); why != "" {
		ui.status.idle(why)
		return
	}
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil {
			dialog.ShowError(err, ui.win)
			return
		}
		if u == nil {
			return // cancelled
		}
		ui.SortImages(filepath.Join(u.Path(), sortedName(ui.sortSource())))
	}, ui.win)
	if l, err := listableURI(ui.exportFolder()); err == nil {
		d.SetLocation(l)
	}
	d.Show()
}

// sortSource is the folder of the images shown: the applied folder's, else the
// analysis's ("" for a built-in sample).
func (ui *UI) sortSource() string {
	if ui.applied != nil {
		return ui.applied.Applied.Dir
	}
	return ui.pres.Analysis.Source.Dir
}

// cannotSort says why the shown result's images cannot be sorted, or "".
func (ui *UI) cannotSort() string {
	switch {
	case ui.pres == nil:
		return "No images to sort: run an algorithm first"
	case ui.sortSource() == "":
		return "The built-in samples have no files to sort: write one with featurelab samples DIR and open that folder"
	}
	return ""
}

// sortedName is the folder the images of dir are sorted into.
func sortedName(dir string) string { return filepath.Base(dir) + " by feature" }

// SortImages writes the images shown — the applied folder's when one is shown, else
// those the result learned on — into out: a folder per feature with the images that own
// it and one per code, of links to the files (app.SortInto); a folder inside the
// image folder is refused in the status bar (app.SortTarget).
func (ui *UI) SortImages(out string) {
	if why := ui.cannotSort(); why != "" {
		ui.status.idle(why)
		return
	}
	a := ui.pres.Analysis
	abs, src, err := app.SortTarget(out, ui.sortSource())
	if err != nil {
		ui.status.idle(strings.TrimPrefix(err.Error(), "sort into: "))
		return
	}
	names, codes, base := a.Data.Names, a.Codes(), a.BaseIndex()
	if f := ui.applied; f != nil {
		names, codes, base = f.Names, f.Codes, f.Base
	}
	ui.saveInBackground(func() error {
		_, err := app.SortInto(abs, src, names, codes, base)
		return err
	}, fmt.Sprintf("Sorted the %d images by feature and by code into %s", len(names), abs), "Sorting the images failed")
	ui.fyneApp.Preferences().SetString(prefExportFolder, filepath.Dir(abs))
}
