package app

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Plot names the diagnostics plots offers.
const (
	PlotExplained = "explained variance"
	PlotCurve     = "objective vs K"
	PlotRestarts  = "objective over restarts"
)

var (
	plotBlue   = color.NRGBA{31, 119, 180, 255}
	plotOrange = color.NRGBA{255, 127, 14, 255}
)

// ExplainedVariancePlot draws the cumulative fraction of variance the PCA keeps.
func (p *Prepared) ExplainedVariancePlot() *plot.Plot {
	pl := plot.New()
	pl.Title.Text = "PCA: cumulative explained variance"
	pl.X.Label.Text = "components"
	pl.Y.Label.Text = "fraction of variance"
	pl.Y.Min, pl.Y.Max = 0, 1
	if p.PCA == nil || p.PCA.TotalVariance <= 0 {
		return pl
	}
	pts := make(plotter.XYs, len(p.PCA.Variance))
	var cum float64
	for i, v := range p.PCA.Variance {
		cum += v
		pts[i] = plotter.XY{X: float64(i + 1), Y: cum / p.PCA.TotalVariance}
	}
	addLine(pl, pts, plotBlue, "")
	return pl
}

// CurvePlot draws stepwise K-features' objective and BP-means objective against K.
func (a *Analysis) CurvePlot() *plot.Plot {
	pl := plot.New()
	pl.Title.Text = "Objective vs K"
	pl.X.Label.Text = "K"
	pl.Y.Label.Text = "objective"
	var obj, bp plotter.XYs
	for _, c := range a.Result.Curve {
		obj = append(obj, plotter.XY{X: float64(c.K), Y: c.Objective})
		bp = append(bp, plotter.XY{X: float64(c.K), Y: c.BPObjective})
	}
	if len(obj) > 0 {
		addLine(pl, obj, plotBlue, "‖X − ZA‖²")
		addLine(pl, bp, plotOrange, fmt.Sprintf("+ λ²K (λ² = %.4g)", a.Result.Lambda2))
		pl.Legend.Top = true
	}
	return pl
}

// RestartsPlot draws every restart's final objective, sorted, so the share of restarts
// that reach the best value can be read off.
func (a *Analysis) RestartsPlot() *plot.Plot {
	pl := plot.New()
	pl.Title.Text = "Final objective of every restart (sorted)"
	pl.X.Label.Text = "restart (sorted by objective)"
	pl.Y.Label.Text = "objective"
	objs := append([]float64(nil), a.Result.RestartObjectives...)
	sort.Float64s(objs)
	pts := make(plotter.XYs, 0, len(objs))
	for i, v := range objs {
		pts = append(pts, plotter.XY{X: float64(i + 1), Y: v})
	}
	if len(pts) > 0 {
		addLine(pl, pts, plotBlue, "")
	}
	return pl
}

func addLine(pl *plot.Plot, pts plotter.XYs, c color.Color, name string) {
	line, points, err := plotter.NewLinePoints(pts)
	if err != nil {
		return // NaN or Inf in the data: leave the plot empty rather than fail
	}
	line.Color = c
	line.Width = vg.Points(1.5)
	points.Color = c
	points.Shape = draw.CircleGlyph{}
	points.Radius = vg.Points(2)
	pl.Add(line)
	if len(pts) <= 60 {
		pl.Add(points)
	}
	if name != "" {
		pl.Legend.Add(name, line)
	}
}

// RenderPlot draws a plot into an image of w×h pixels for the window.
func RenderPlot(pl *plot.Plot, w, h int) image.Image {
	w, h = max(w, 64), max(h, 48)
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(w)*vg.Inch/96, vg.Length(h)*vg.Inch/96), vgimg.UseDPI(96))
	pl.Draw(draw.New(c))
	return c.Image()
}

// ExportPlot writes a plot as PNG or SVG, chosen by the file's extension.
func ExportPlot(pl *plot.Plot, path string, overwrite bool) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if ext != "png" && ext != "svg" {
		return fmt.Errorf("plot export: %s: want a .png or .svg file", path)
	}
	wt, err := pl.WriterTo(8*vg.Inch, 5*vg.Inch, ext)
	if err != nil {
		return err
	}
	return writeAtomic(path, overwrite, func(w io.Writer) error { _, err := wt.WriteTo(w); return err })
}
