package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"featurelab/algorithms/segment"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/app/segmenting"
	"featurelab/imgproc"
	"featurelab/internal/atomicfile"
)

// Plot names the diagnostics plots offers.
const (
	PlotExplained = "explained variance"
	PlotCurve     = "objective vs K"
	PlotRestarts  = "objective over restarts"
	PlotTraceK    = "IBP: K per sweep"
	PlotTraceHyp  = "IBP: α, σ_X, σ_A per sweep"
	PlotLogJoint  = "IBP: log joint per sweep"
	PlotKHist     = "IBP: histogram of K"
	PlotExposure  = "exposure of each picture"
)

// PlotNames lists the diagnostics plots there is something to draw for: the PCA's
// explained variance once data is loaded, then the plots the result a has (nil for none).
func PlotNames(p *pipeline.Prepared, a *result.Analysis) []string {
	var names []string
	if p != nil && p.PCA != nil && !p.PCA.Identity {
		names = append(names, PlotExplained)
	}
	if p != nil && p.Exposure.Gains() != nil {
		names = append(names, PlotExposure)
	}
	if a == nil {
		return names
	}
	if len(a.Result.Curve) > 0 {
		names = append(names, PlotCurve)
	}
	if len(a.Result.RestartObjectives) > 1 {
		names = append(names, PlotRestarts)
	}
	if a.Result.Trace != nil && len(a.Result.Trace.K) > 0 {
		names = append(names, PlotTraceK, PlotTraceHyp, PlotLogJoint, PlotKHist)
	}
	return names
}

// NamedPlot draws the diagnostics plot called name, or returns nil when there is
// nothing to draw it from.
func NamedPlot(name string, p *pipeline.Prepared, a *result.Analysis) *plot.Plot {
	if name == PlotExplained {
		if p == nil {
			return nil
		}
		return ExplainedVariancePlot(p)
	}
	if name == PlotExposure {
		if p == nil {
			return nil
		}
		return ExposurePlot(p)
	}
	if a == nil {
		return nil
	}
	switch name {
	case PlotCurve:
		return CurvePlot(a)
	case PlotRestarts:
		return RestartsPlot(a)
	case PlotTraceK, PlotTraceHyp, PlotLogJoint:
		return TracePlot(a, name)
	case PlotKHist:
		return KHistogramPlot(a)
	}
	return nil
}

var (
	plotBlue   = color.NRGBA{31, 119, 180, 255}
	plotOrange = color.NRGBA{255, 127, 14, 255}
	plotGreen  = color.NRGBA{44, 160, 44, 255}
)

// ExplainedVariancePlot draws the cumulative fraction of variance the PCA keeps.
func ExplainedVariancePlot(p *pipeline.Prepared) *plot.Plot {
	pl := newPlot("PCA: cumulative explained variance", "components", "fraction of variance")
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

// ExposurePlot draws each picture's exposure gain, divided out before the PCA
// (pipeline.ExposureHandling), in the folder's order: 1 is the typical picture's light.
func ExposurePlot(p *pipeline.Prepared) *plot.Plot {
	pl := newPlot("Exposure of each picture (divided out before the PCA)", "picture", "gain against the typical picture")
	gains := p.Exposure.Gains()
	pts := make(plotter.XYs, 0, len(gains))
	for i, g := range gains {
		if p.Exposure.Measured.Measured[i] {
			pts = append(pts, plotter.XY{X: float64(i + 1), Y: g})
		}
	}
	if len(pts) > 0 {
		if s, err := plotter.NewScatter(pts); err == nil {
			s.GlyphStyle.Color = plotBlue
			s.GlyphStyle.Radius = vg.Points(1.5)
			pl.Add(s)
		}
	}
	return pl
}

// fittedObjective is the axis label of the objectives a learner reached: where it chose
// K by counting objects it fitted the pictures through a slight blur (Analysis.Seen), so
// its curve and restarts are of those, not of the objective the result reports.
func fittedObjective(a *result.Analysis) string {
	if a.Seen != nil {
		return "objective of the slightly blurred pictures fitted"
	}
	return "objective"
}

// CurvePlot draws stepwise K-features' objective and BP-means objective against K.
func CurvePlot(a *result.Analysis) *plot.Plot {
	pl := newPlot("Objective vs K", "K", fittedObjective(a))
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
func RestartsPlot(a *result.Analysis) *plot.Plot {
	pl := newPlot("Final objective of every restart (sorted)", "restart (sorted by objective)", fittedObjective(a))
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

// TracePlot draws the IBP sampler's per-sweep trace called name (PlotTraceK,
// PlotTraceHyp or PlotLogJoint); the second half of the sweeps, over which the posterior
// summaries are taken, is to the right of the dashed line.
func TracePlot(a *result.Analysis, name string) *plot.Plot {
	pl := plot.New()
	pl.X.Label.Text = "sweep"
	tr := a.Result.Trace
	if tr == nil {
		return pl
	}
	series := func(v []float64) plotter.XYs {
		pts := make(plotter.XYs, len(v))
		for i, y := range v {
			pts[i] = plotter.XY{X: float64(i + 1), Y: y}
		}
		return pts
	}
	switch name {
	case PlotTraceK:
		pl.Title.Text = fmt.Sprintf("IBP: number of features K (final K = %d)", a.Result.K)
		pl.Y.Label.Text = "K"
		ks := make([]float64, len(tr.K))
		for i, k := range tr.K {
			ks[i] = float64(k)
		}
		addLine(pl, series(ks), plotBlue, "")
	case PlotTraceHyp:
		pl.Title.Text = fmt.Sprintf("IBP: posterior means α %.3g, σ_X %.3g, σ_A %.3g", a.Result.Alpha, a.Result.SigmaX, a.Result.SigmaA)
		pl.Y.Label.Text = "value"
		addLine(pl, series(tr.Alpha), plotBlue, "α")
		addLine(pl, series(tr.SigmaX), plotOrange, "σ_X")
		addLine(pl, series(tr.SigmaA), plotGreen, "σ_A")
		pl.Legend.Top = true
	case PlotLogJoint:
		pl.Title.Text = fmt.Sprintf("IBP: log joint (MAP %.6g)", a.Result.MAPLogJoint)
		pl.Y.Label.Text = "log P(X, Z, α, σ_X, σ_A)"
		addLine(pl, series(tr.LogJoint), plotBlue, "")
	}
	if n := len(tr.K); n > 1 {
		if half, err := plotter.NewLine(plotter.XYs{{X: float64(n/2 + 1), Y: pl.Y.Min}, {X: float64(n/2 + 1), Y: pl.Y.Max}}); err == nil {
			half.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			half.Color = color.Gray{Y: 128}
			pl.Add(half)
		}
	}
	return pl
}

// KHistogramPlot draws how often the IBP sampler's second-half sweeps ended with each K.
func KHistogramPlot(a *result.Analysis) *plot.Plot {
	pl := newPlot("IBP: posterior of K (second half of the sweeps)", "K", "sweeps")
	h := a.Result.KHistogram
	if len(h) == 0 {
		return pl
	}
	vals := make(plotter.Values, len(h))
	for k, c := range h {
		vals[k] = float64(c)
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(12))
	if err != nil {
		return pl
	}
	bars.Color = plotBlue
	bars.LineStyle.Width = 0
	pl.Add(bars)
	labels := make([]string, len(h))
	for k := range labels {
		labels[k] = fmt.Sprint(k)
	}
	pl.NominalX(labels...)
	return pl
}

// newPlot is an empty plot with its title and axis labels.
func newPlot(title, x, y string) *plot.Plot {
	pl := plot.New()
	pl.Title.Text = title
	pl.X.Label.Text = x
	pl.X.Tick.Marker = wholeTicks{} // every x axis counts: components, K, restarts, iterations
	pl.Y.Label.Text = y
	return pl
}

// wholeTicks marks an axis of counts at whole numbers only: gonum/plot's default ticks
// label an axis of 13 iterations at 2.50, 7.50 and 12.50.
type wholeTicks struct{}

// Ticks labels [lo, hi] at the multiples of the smallest step of 1, 2, 5, 10, 20, 50, …
// that gives at most 7 labels.
func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span >= 0) || span > 1e15 { // NaN, Inf or reversed: leave the axis bare
		return nil
	}
	step := 1.0
	for i := 0; span/step > 7; i++ {
		step *= [...]float64{2, 2.5, 2}[i%3] // 1 → 2 → 5 → 10 → 20 → …
	}
	var out []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return out
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
	drawPlot(pl, c)
	return c.Image()
}

// rightMargin is the room left right of a plot's x axis: gonum/plot ends the axis at the
// canvas's edge, where the last point's mark and tick label (K = 6 of a λ² path) would
// be cut in half.
const rightMargin = 12 * vg.Millimeter

// drawPlot draws pl on c, leaving rightMargin free at the right, in the plot's
// background (an SVG canvas starts with none).
func drawPlot(pl *plot.Plot, c vg.CanvasSizer) {
	dc := draw.New(c)
	if pl.BackgroundColor != nil {
		dc.SetColor(pl.BackgroundColor)
		dc.Fill(dc.Rectangle.Path())
	}
	pl.Draw(draw.Crop(dc, 0, -rightMargin, 0, 0))
}

// ExportPlot writes a plot as PNG or SVG, chosen by the file's extension.
func ExportPlot(pl *plot.Plot, path string, overwrite bool) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if ext != "png" && ext != "svg" {
		return fmt.Errorf("plot export: %s: want a .png or .svg file", path)
	}
	wt, err := draw.NewFormattedCanvas(8*vg.Inch, 5*vg.Inch, ext)
	if err != nil {
		return err
	}
	drawPlot(pl, wt)
	return atomicfile.Write(path, overwrite, func(w io.Writer) error {
		if ext == "svg" {
			_, err := wt.WriteTo(w)
			return err
		}
		var buf bytes.Buffer
		if _, err := wt.WriteTo(&buf); err != nil {
			return err
		}
		return imgproc.MarkPNG(w, buf.Bytes()) // so that a plot saved among the images is not loaded as one
	})
}

// BoundPlot draws the trace of a segmentation by method: the KPYP's variational bound
// after every iteration, which never falls (the check a user can make that the fit
// converged), or K-means' and DP-means' objective, which never rises. Nil when there
// is no trace.
func BoundPlot(s *segmenting.Segmentation, method string) *plot.Plot {
	if s == nil || s.Result == nil || len(s.Result.Bound) == 0 {
		return nil
	}
	title, y := "Variational bound", "bound (nats)"
	switch method {
	case segment.MethodKMeans:
		title, y = "K-means objective", "objective"
	case segment.MethodDPMeans:
		title, y = "DP-means objective", "objective"
	}
	pl := newPlot(title, "iteration", y)
	pts := make(plotter.XYs, len(s.Result.Bound))
	for i, b := range s.Result.Bound {
		pts[i] = plotter.XY{X: float64(i + 1), Y: b}
	}
	addLine(pl, pts, plotBlue, "")
	return pl
}
