package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot"

	"featurelab/app"
)

// plotView shows a gonum plot and redraws it whenever its size changes, so text and
// lines stay sharp at any window size.
type plotView struct {
	widget.BaseWidget
	plot *plot.Plot
	img  *canvas.Image
	size fyne.Size
	min  fyne.Size // the smallest it is laid out at; 320×220 unless set
}

func newPlotView() *plotView {
	v := &plotView{img: canvas.NewImageFromImage(nil), min: fyne.NewSize(320, 220)}
	v.img.FillMode = canvas.ImageFillStretch
	v.ExtendBaseWidget(v)
	return v
}

// SetPlot replaces the plot; call on the UI goroutine.
func (v *plotView) SetPlot(p *plot.Plot) {
	v.plot = p
	v.size = fyne.Size{}
	v.Refresh()
}

func (v *plotView) MinSize() fyne.Size { return v.min }

func (v *plotView) CreateRenderer() fyne.WidgetRenderer { return &plotRenderer{v: v} }

type plotRenderer struct{ v *plotView }

func (r *plotRenderer) Layout(size fyne.Size) {
	r.v.img.Resize(size)
	r.redraw(size)
}

func (r *plotRenderer) redraw(size fyne.Size) {
	v := r.v
	if v.plot == nil || size.Width < 1 || size.Height < 1 || size == v.size {
		return
	}
	v.size = size
	v.img.Image = app.RenderPlot(v.plot, int(size.Width), int(size.Height))
	v.img.Refresh()
}

func (r *plotRenderer) MinSize() fyne.Size { return r.v.MinSize() }

func (r *plotRenderer) Refresh() {
	if r.v.plot == nil {
		r.v.img.Image = nil
		r.v.img.Refresh()
		return
	}
	r.redraw(r.v.Size())
}

func (r *plotRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.v.img} }

func (r *plotRenderer) Destroy() {}
