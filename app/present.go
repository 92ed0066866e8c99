package app

import (
	"context"
	"image"

	"gonum.org/v1/plot"

	"featurelab/app/jobs"
	"featurelab/app/pipeline"
	"featurelab/app/report"
	"featurelab/app/result"
	"featurelab/app/saved"
	"featurelab/app/segmenting"
)

// What the window shows and writes of the values it holds: each the subpackage's own
// function, so that the window and the command line say and write the same.

// NewManager returns a job manager that starts its jobs with run.
func NewManager(run Runner) *Manager { return jobs.NewManager(run) }

// GoRunner runs a job on its own goroutine: the window's runner.
func GoRunner(job func()) { jobs.GoRunner(job) }

// Prepare loads and prepares a data set in stages, reporting each and previewing the
// thumbnails as they come: the Preparer the window loads with.
func Prepare(ctx context.Context, req Request, progress func(Progress), preview func(names []string, thumbs []image.Image)) (*Prepared, error) {
	return pipeline.PrepareInStages(ctx, req, progress, preview)
}

// Cosegment segments the pictures of a prepared data set together.
func Cosegment(ctx context.Context, p *Prepared, opt CosegmentOptions, progress func(Progress)) (*Cosegmentation, error) {
	return segmenting.CosegmentLoaded(ctx, p, opt, progress)
}

// LoadImage reads one picture to segment.
func LoadImage(path string) (image.Image, error) { return segmenting.LoadImage(path) }

// ExistingOutputs lists the segmentation outputs already in dir, which a run would replace.
func ExistingOutputs(dir string) []string { return segmenting.ExistingOutputs(dir) }

// OpenSaved opens a saved analysis.
func OpenSaved(path string) (*SavedAnalysis, error) { return saved.Open(path) }

// SaveAnalysis saves an analysis with the loading choices that reproduce its data.
func SaveAnalysis(a *Analysis, path string, load LoadChoices) error { return saved.Save(a, path, load) }

// Compare matches the features of two analyses.
func Compare(left, right *Analysis) result.Comparison { return result.Compare(left, right) }

// Texts.

// CountText is "n what", with what made plural when n is not 1.
func CountText(n int, what string) string { return report.CountText(n, what) }

// FeatureLabel is a feature's caption in the window and the exports: "base", "#3 adds",
// "cluster #2".
func FeatureLabel(f Feature) string { return report.FeatureLabel(f) }

// ExplainedText says how much of the data a feature explains.
func ExplainedText(f Feature) string { return report.ExplainedText(f) }

// SeparationText says whether a feature's images split cleanly into those that show it
// and those that do not ("on/off") or by degrees ("gradual").
func SeparationText(f Feature) string { return report.SeparationText(f) }

// StabilityText says how reproducible a feature is: how many half-sample fits held it.
func StabilityText(f Feature) string { return report.StabilityText(f) }

// MinorText says how many minor features are folded away.
func MinorText(minor int) string { return report.MinorText(minor) }

// NoBaseSentence says that no feature is owned by every image, so there is no base.
func NoBaseSentence() string { return report.NoBaseSentence() }

// UnsureText says how sure the IBP's sweeps were of an image's code.
func UnsureText(probs []float64) string { return report.UnsureText(probs) }

// UnsureTextOfNew says how likely a new picture's code is.
func UnsureTextOfNew(probs []float64) string { return report.UnsureTextOfNew(probs) }

// ObjectiveText is an analysis's objective as its summary shows it.
func ObjectiveText(a *Analysis) string { return saved.ObjectiveText(a) }

// Plots.

// PlotNames lists the plots a data set and an analysis offer, in the order shown.
func PlotNames(p *Prepared, a *Analysis) []string { return report.PlotNames(p, a) }

// NamedPlot is the plot of that name for a data set and an analysis; nil when there is
// nothing to draw it from.
func NamedPlot(name string, p *Prepared, a *Analysis) *plot.Plot { return report.NamedPlot(name, p, a) }

// BoundPlot is a segmentation's trace per iteration: the KPYP's variational bound, or
// K-means' and DP-means' objective.
func BoundPlot(s *Segmentation, method string) *plot.Plot { return report.BoundPlot(s, method) }

// RenderPlot draws a plot at w×h pixels.
func RenderPlot(pl *plot.Plot, w, h int) image.Image { return report.RenderPlot(pl, w, h) }

// Files written for the user; overwrite says the user agreed to replace what is there.

// ExportCodes writes an analysis's codes as CSV.
func ExportCodes(a *Analysis, path string, overwrite bool) error {
	return report.ExportCodes(a, path, overwrite)
}

// ExportEncodedCodes writes the codes of pictures coded with a saved analysis as CSV, as
// `featurelab encode` does.
func ExportEncodedCodes(path string, codes []Code, overwrite bool) error {
	return report.ExportEncodedCodes(path, codes, overwrite)
}

// ExportFeatureGrid writes an analysis's feature grid as PNG; all includes the minor features.
func ExportFeatureGrid(a *Analysis, path string, overwrite, all bool) error {
	return report.ExportFeatureGrid(a, path, overwrite, all)
}

// ExportPlot writes a plot as PNG or SVG, by the file's extension.
func ExportPlot(pl *plot.Plot, path string, overwrite bool) error {
	return report.ExportPlot(pl, path, overwrite)
}

// ExportResult writes an analysis's result as JSON.
func ExportResult(a *Analysis, path string, overwrite bool) error {
	return report.ExportResult(a, path, overwrite)
}

// SortTarget is out and src made absolute, or an error when out lies inside src (the next
// load of src would count the sorted pictures as its own).
func SortTarget(out, src string) (string, string, error) { return report.SortTarget(out, src) }

// SortInto writes the pictures into folders of out by what they hold, a folder per feature.
func SortInto(out, src string, names, codes []string, base int) (int, error) {
	return report.SortInto(out, src, names, codes, base)
}
