package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot"

	"featurelab/app"
)

// diagnosticsView plots the PCA's explained variance, stepwise's objective-vs-K curve and
// the objectives over restarts.
type diagnosticsView struct {
	ui     *UI
	choice *widget.RadioGroup
	plot   *plotView
	box    fyne.CanvasObject
}

func newDiagnosticsView(ui *UI) *diagnosticsView {
	v := &diagnosticsView{ui: ui, plot: newPlotView()}
	v.choice = widget.NewRadioGroup([]string{app.PlotExplained, app.PlotCurve, app.PlotRestarts}, func(string) { v.refresh() })
	v.choice.Horizontal = true
	v.choice.Required = true
	v.choice.SetSelected(app.PlotExplained)
	v.box = container.NewBorder(v.choice, nil, nil, nil, v.plot)
	return v
}

func (v *diagnosticsView) object() fyne.CanvasObject { return v.box }

// current returns the plot chosen, or nil when there is nothing to draw yet.
func (v *diagnosticsView) current() *plot.Plot {
	switch v.choice.Selected {
	case app.PlotExplained:
		if v.ui.dataset.prepared != nil {
			return v.ui.dataset.prepared.ExplainedVariancePlot()
		}
	case app.PlotCurve:
		if v.ui.pres != nil {
			return v.ui.pres.Analysis.CurvePlot()
		}
	case app.PlotRestarts:
		if v.ui.pres != nil {
			return v.ui.pres.Analysis.RestartsPlot()
		}
	}
	return nil
}

// refresh redraws the chosen plot; call on the UI goroutine.
func (v *diagnosticsView) refresh() {
	if v.plot == nil {
		return
	}
	v.plot.SetPlot(v.current())
}
