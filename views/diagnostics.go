package views

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"featurelab/app"
)

// diagnosticsView shows one diagnostics plot at a time — the PCA's explained variance,
// stepwise's objective-vs-K curve, the objectives over restarts, the IBP sampler's traces
// and K histogram — whichever the data and the shown result have, and saves it as PNG/SVG.
type diagnosticsView struct {
	ui     *UI
	choice *escSelect
	export *widget.Button
	info   *infoMark // what the plot shown is
	plot   *plotView
	box    fyne.CanvasObject
}

func newDiagnosticsView(ui *UI) *diagnosticsView {
	v := &diagnosticsView{ui: ui, plot: newPlotView()}
	v.choice = newSelect(nil, func(string) { v.draw() })
	v.choice.PlaceHolder = "No plot yet"
	v.export = widget.NewButtonWithIcon("Save plot…", theme.DocumentSaveIcon(), v.chooseExport)
	v.export.Disable()
	v.info = newInfoMark()
	top := container.NewBorder(nil, nil, widget.NewLabel("Plot"), container.NewHBox(v.info, v.export), v.choice)
	v.box = container.NewBorder(top, nil, nil, nil, v.plot)
	return v
}

func (v *diagnosticsView) object() fyne.CanvasObject { return v.box }

func (v *diagnosticsView) analysis() *app.Analysis {
	if v.ui.pres == nil {
		return nil
	}
	return v.ui.pres.Analysis
}

// refresh offers the plots the current data and result have, keeping the chosen one when
// it is still there and otherwise choosing the most telling one; call on the UI goroutine.
func (v *diagnosticsView) refresh() {
	names := app.PlotNames(v.ui.dataset.prepared, v.analysis())
	v.choice.Options = names
	v.choice.Refresh()
	switch {
	case len(names) == 0:
		v.choice.ClearSelected()
	case slices.Contains(names, v.choice.Selected) && v.choice.Selected != app.PlotExplained:
	case len(names) > 1 && names[0] == app.PlotExplained:
		// A fresh result shows its own first plot rather than the data set's.
		v.choice.SetSelected(names[1])
	default:
		v.choice.SetSelected(names[0])
	}
	v.draw()
}

func (v *diagnosticsView) draw() {
	pl := app.NamedPlot(v.choice.Selected, v.ui.dataset.prepared, v.analysis())
	v.plot.SetPlot(pl)
	if line, ok := plotExplained[v.choice.Selected]; ok && pl != nil {
		v.info.set(line)
	} else {
		v.info.set()
	}
	if pl == nil {
		v.export.Disable()
	} else {
		v.export.Enable()
	}
}

// chooseExport asks where to save the shown plot; the extension (.png or .svg) picks the
// format.
func (v *diagnosticsView) chooseExport() {
	name := v.choice.Selected
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			dialog.ShowError(err, v.ui.win)
			return
		}
		if w == nil {
			return
		}
		path := w.URI().Path()
		w.Close()
		v.ui.ExportPlot(name, path)
	}, v.ui.win)
	d.SetFileName(plotFileName(name) + ".png")
	d.SetFilter(storage.NewExtensionFileFilter([]string{".png", ".svg"}))
	d.Show()
}

// plotExplained is what each diagnostics plot shows, by its name.
var plotExplained = map[string]string{
	app.PlotExplained: explainVariance,
	app.PlotCurve:     explainCurve,
	app.PlotRestarts:  explainRestarts,
	app.PlotTraceK:    explainTraceK,
	app.PlotTraceHyp:  explainTraceHyp,
	app.PlotLogJoint:  explainLogJoint,
	app.PlotKHist:     explainKHist,
	app.PlotExposure:  explainExposure,
}

// plotFileName turns a plot's title into a file name: "IBP: K per sweep" → "ibp-k-per-sweep".
func plotFileName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// ExportPlot writes the diagnostics plot called name to path (PNG or SVG by extension) in
// the background. The save dialog has already asked before replacing a file.
func (ui *UI) ExportPlot(name, path string) {
	pl := app.NamedPlot(name, ui.dataset.prepared, ui.diag.analysis())
	if pl == nil {
		return
	}
	ui.saveInBackground(func() error { return app.ExportPlot(pl, path, true) }, "Saved "+path, "Export failed")
}
