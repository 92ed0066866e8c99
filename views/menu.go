package views

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"featurelab/app"
)

// export is one thing the window can save: a name for menus, a default file name, and the
// app function that writes it.
type export struct {
	label string
	file  string
	ext   string
	write func(a *app.Analysis, path string) error
}

var exports = []export{
	{"Feature grid (PNG)…", app.FeaturesFile, ".png", func(a *app.Analysis, p string) error { return a.ExportFeatureGrid(p, true) }},
	{"Codes (CSV)…", app.CodesFile, ".csv", func(a *app.Analysis, p string) error { return a.ExportCodes(p, true) }},
	{"Result (JSON)…", app.ResultFile, ".json", func(a *app.Analysis, p string) error { return a.ExportResult(p, true) }},
}

func (ui *UI) mainMenu() *fyne.MainMenu {
	file := fyne.NewMenu("File", fyne.NewMenuItem("Open folder…", ui.dataset.chooseFolder))
	file.Items = append(file.Items, fyne.NewMenuItemSeparator())
	for _, e := range exports {
		e := e
		file.Items = append(file.Items, fyne.NewMenuItem("Export "+e.label, func() { ui.chooseExport(e) }))
	}
	samples := fyne.NewMenu("Samples")
	for _, name := range ui.dataset.samples.Options {
		name := name
		samples.Items = append(samples.Items, fyne.NewMenuItem(name, func() { ui.LoadSample(name) }))
	}
	return fyne.NewMainMenu(file, samples)
}

// chooseExport asks where to save (Fyne's save dialog confirms before replacing a file)
// and writes the export there.
func (ui *UI) chooseExport(e export) {
	if ui.pres == nil {
		dialog.ShowInformation("Nothing to export", "Run an algorithm first.", ui.win)
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
		ui.Export(e.file, path)
	}, ui.win)
	d.SetFileName(e.file)
	d.SetFilter(storage.NewExtensionFileFilter([]string{e.ext}))
	if last := ui.app.Preferences().String(prefLastFolder); last != "" {
		if l, err := listableURI(last); err == nil {
			d.SetLocation(l)
		}
	}
	d.Show()
}

// Export writes the shown result's export named by file (features.png, codes.csv or
// result.json) to path in the background.
func (ui *UI) Export(file, path string) {
	if ui.pres == nil {
		return
	}
	a := ui.pres.Analysis
	for _, e := range exports {
		if e.file != file {
			continue
		}
		ui.saveInBackground(func() error { return e.write(a, path) }, "Saved "+path, "Export failed")
	}
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
