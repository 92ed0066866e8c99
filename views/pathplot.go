package views

import (
	"fmt"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"featurelab/app"
)

// pathPlot draws a stepwise run's λ² path — for each λ² (log scale, across) the K that
// is best for it (up) — as one step per K, the shown K in the accent colour. A tap or
// click anywhere picks the K whose λ² interval lies under the pointer: every λ² has
// exactly one best K, so the whole width is a target, not just the thin steps.
type pathPlot struct {
	widget.BaseWidget
	entries []app.PathEntry
	shown   int         // the K shown now
	onPick  func(k int) // called with the picked K, on the UI goroutine
	lo, hi  float64     // the λ² range drawn, log10
	objects []fyne.CanvasObject
}

// Margins of the plot area inside the widget, in Fyne units: room for the K labels on
// the left and the λ² ticks below.
const (
	pathLeft   = 44
	pathRight  = 12
	pathTop    = 8
	pathBottom = 30
	// pathLabelGap is the least distance between two K labels' centres.
	pathLabelGap = 12
)

func newPathPlot(onPick func(k int)) *pathPlot {
	p := &pathPlot{onPick: onPick}
	p.ExtendBaseWidget(p)
	return p
}

// set shows entries (largest λ² first, as app.Analysis.Path gives them) with K = shown
// marked; call on the UI goroutine.
func (p *pathPlot) set(entries []app.PathEntry, shown int) {
	p.entries, p.shown = entries, shown
	// The range covers every finite end, with half a decade to spare on each side for the
	// open intervals at the ends (the smallest K up to +∞, the largest down to 0).
	p.lo, p.hi = math.Inf(1), math.Inf(-1)
	for _, e := range entries {
		for _, v := range []float64{e.Low, e.High} {
			if v > 0 && !math.IsInf(v, 0) {
				p.lo, p.hi = min(p.lo, math.Log10(v)), max(p.hi, math.Log10(v))
			}
		}
	}
	if math.IsInf(p.lo, 1) {
		p.lo, p.hi = 0, 1
	}
	p.lo, p.hi = p.lo-0.5, p.hi+0.5
	p.Refresh()
}

// MinSize leaves room for a readable step per K at the window's first size.
func (p *pathPlot) MinSize() fyne.Size { return fyne.NewSize(360, 130) }

// Tapped picks the K whose interval holds the λ² under the pointer.
func (p *pathPlot) Tapped(ev *fyne.PointEvent) {
	if k, ok := p.kAt(ev.Position.X); ok && p.onPick != nil {
		p.onPick(k)
	}
}

// kAt is the K best at the λ² drawn at x, and false left or right of the plot area.
func (p *pathPlot) kAt(x float32) (int, bool) {
	w := p.Size().Width - pathLeft - pathRight
	if len(p.entries) == 0 || w <= 0 || x < pathLeft || x > pathLeft+w {
		return 0, false
	}
	l := math.Pow(10, p.lo+(p.hi-p.lo)*float64((x-pathLeft)/w))
	for _, e := range p.entries {
		if l >= e.Low && l <= e.High {
			return e.K, true
		}
	}
	return 0, false
}

// xAt is where λ² = l is drawn.
func (p *pathPlot) xAt(l float64) float32 {
	w := p.Size().Width - pathLeft - pathRight
	switch {
	case !(l > 0):
		return pathLeft
	case math.IsInf(l, 1):
		return pathLeft + w
	}
	f := (math.Log10(l) - p.lo) / (p.hi - p.lo)
	return pathLeft + w*float32(min(max(f, 0), 1))
}

func (p *pathPlot) CreateRenderer() fyne.WidgetRenderer { return &pathPlotRenderer{p: p} }

type pathPlotRenderer struct{ p *pathPlot }

// Layout rebuilds the drawing for the size: a handful of lines and labels.
func (r *pathPlotRenderer) Layout(size fyne.Size) {
	p := r.p
	p.objects = p.objects[:0]
	if len(p.entries) == 0 {
		return
	}
	fg := theme.Color(theme.ColorNameForeground)
	dim := theme.Color(theme.ColorNameDisabled)
	accent := theme.Color(theme.ColorNamePrimary)
	h := size.Height - pathTop - pathBottom
	kMin, kMax := p.entries[0].K, p.entries[0].K
	for _, e := range p.entries {
		kMin, kMax = min(kMin, e.K), max(kMax, e.K)
	}
	yAt := func(k int) float32 {
		if kMax == kMin {
			return pathTop + h/2
		}
		return pathTop + h*float32(kMax-k)/float32(kMax-kMin)
	}
	axis := func(x1, y1, x2, y2 float32, c color.Color) {
		l := canvas.NewLine(c)
		l.StrokeWidth = 1
		l.Position1, l.Position2 = fyne.NewPos(x1, y1), fyne.NewPos(x2, y2)
		p.objects = append(p.objects, l)
	}
	text := func(s string, x, y float32, c color.Color) {
		t := canvas.NewText(s, c)
		t.TextSize = theme.CaptionTextSize()
		ts := t.MinSize()
		t.Move(fyne.NewPos(x-ts.Width/2, y-ts.Height/2))
		p.objects = append(p.objects, t)
	}
	right := size.Width - pathRight
	axis(pathLeft, pathTop+h, right, pathTop+h, dim)
	axis(pathLeft, pathTop, pathLeft, pathTop+h, dim)
	// λ² ticks at the powers of ten inside the range, labelled as numbers.
	for d := math.Ceil(p.lo); d <= p.hi; d++ {
		x := p.xAt(math.Pow(10, d))
		axis(x, pathTop+h, x, pathTop+h+4, dim)
		text(fmt.Sprintf("%g", math.Pow(10, d)), x, pathTop+h+12, dim)
	}
	text("λ² →", right-16, pathTop+h+24, dim)
	for i, e := range p.entries {
		c, width := fg, float32(2)
		if e.K == p.shown {
			c, width = accent, 4
		}
		y := yAt(e.K)
		x1, x2 := p.xAt(e.Low), p.xAt(e.High)
		step := canvas.NewLine(c)
		step.StrokeWidth = width
		step.Position1, step.Position2 = fyne.NewPos(x1, y), fyne.NewPos(x2, y)
		p.objects = append(p.objects, step)
		// The riser to the next (smaller λ², larger K) step, so the path reads as one line.
		if i+1 < len(p.entries) {
			axis(x1, y, x1, yAt(p.entries[i+1].K), dim)
		}
	}
	// K labels: the shown K's first, then the ends of the path and the rest, each only
	// where it does not run into one already placed.
	var placed []float32
	label := func(e app.PathEntry, c color.Color) {
		y := yAt(e.K)
		for _, q := range placed {
			if d := y - q; d < pathLabelGap && d > -pathLabelGap {
				return
			}
		}
		placed = append(placed, y)
		text(fmt.Sprintf("K = %d", e.K), pathLeft/2, y, c)
	}
	order := make([]app.PathEntry, 0, len(p.entries))
	for _, e := range p.entries {
		if e.K == p.shown {
			order = append(order, e)
		}
	}
	order = append(order, p.entries[0], p.entries[len(p.entries)-1])
	order = append(order, p.entries...)
	for _, e := range order {
		c := fg
		if e.K == p.shown {
			c = accent
		}
		label(e, c)
	}
}

func (r *pathPlotRenderer) MinSize() fyne.Size { return r.p.MinSize() }

func (r *pathPlotRenderer) Refresh() {
	r.Layout(r.p.Size())
	canvas.Refresh(r.p)
}

func (r *pathPlotRenderer) Objects() []fyne.CanvasObject { return r.p.objects }

func (r *pathPlotRenderer) Destroy() {}
