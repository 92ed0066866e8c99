package report

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"strings"

	"github.com/disintegration/imaging"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"featurelab/algorithms/features"
	"featurelab/app/result"
	"featurelab/imgproc"
	"featurelab/internal/parallel"
)

// Layout of the feature grid (MAD-Bayes paper, Fig. 2 style): a row of sample images with
// their codes, then the base and every feature with its add/subtract label, then each
// feature alone on a diverging colour map.
const (
	gridCell    = 128 // longest side of a picture in the grid
	gridGap     = 12
	gridCaption = 43 // three lines of 7×13 text
	gridSamples = 8
)

var (
	gridBackground = color.NRGBA{250, 250, 250, 255}
	gridInk        = color.NRGBA{30, 30, 30, 255}
	gridMuted      = color.NRGBA{110, 110, 110, 255}
)

// FeatureGrid renders the analysis as one picture for export, its minor features left
// out (FeatureGridOf).
func FeatureGrid(a *result.Analysis) *image.NRGBA { return FeatureGridOf(a, false) }

// FeatureGridOf renders the analysis as one picture for export: its features in the
// order the window shows them (RankFeatures), with the minor ones when all is set; when
// it is not, a line under the title says how many were left out.
func FeatureGridOf(a *result.Analysis, all bool) *image.NRGBA {
	img, _ := featureGrid(a, all)
	return img
}

// featureGrid is FeatureGridOf, with the box of every picture and line of text it drew:
// none may overlap another (TestGridTextNeverOverlaps).
func featureGrid(a *result.Analysis, all bool) (*image.NRGBA, []image.Rectangle) {
	feats, minor := RankFeatures(a, a.Features())
	if all {
		minor = 0
	}
	feats = feats[:len(feats)-minor]
	samples := SampleImages(a, gridSamples)
	cellW, cellH := cellSize(a)
	cols := max(len(feats), len(samples), 1)
	rows := 2
	if !a.IsClustering() && len(feats) > 1 {
		rows = 3
	}
	titleH := 2 * gridCaption
	var minorLine string // under the title, the features left out
	if minor > 0 {
		titleH += 18
		minorLine = MinorText(minor) + " left out"
	}
	w := gridGap + cols*(cellW+gridGap)
	w = max(w, 560, 2*gridGap+7*len([]rune(minorLine)))
	// Why K counts no objects (a folder of shared patterns, features that vary by
	// degrees), under the title, wrapped to the grid's width.
	var note []string
	if k := a.KNote(); k != "" {
		note = wrapRunes(gridText.Replace(k+"."), max((w-2*gridGap)/7, 8))
		titleH += 13*len(note) + 5
	}
	codes := a.Codes()
	legend := sampleLegend(a, samples, codes, cellW, w-2*gridGap)
	h := titleH + rows*(cellH+gridCaption+gridGap+18) + gridGap
	if len(legend) > 0 {
		h += 18 + 13*len(legend) + gridGap
	}
	g := &gridPainter{img: image.NewNRGBA(image.Rect(0, 0, w, h))}
	img := g.img
	fill(img, gridBackground)

	res := a.Result
	g.text(gridGap, 20, gridInk, fmt.Sprintf("Feature Lab | %s | K = %d | %d images | objective %.4g",
		a.Algorithm.Title, res.K, len(a.Data.Names), res.Objective))
	g.text(gridGap, 38, gridMuted, trimName(a.Source.String(), w-2*gridGap))
	y := 56
	if minor > 0 {
		g.text(gridGap, y, gridInk, minorLine)
		y += 18
	}
	for l, line := range note {
		g.text(gridGap, y+13*l, gridInk, line)
	}

	y = titleH
	g.text(gridGap, y+12, gridMuted, "Sample images and their codes")
	y += 18
	for c, i := range samples {
		x := gridGap + c*(cellW+gridGap)
		g.picture(a, x, y, cellW, cellH, func() image.Image { return a.Data.Image(i) })
		lines := codeLines(codes[i], cellW)
		for l, line := range lines {
			g.text(x, y+cellH+13*(l+1), gridInk, line)
		}
		name := trimName(a.Data.Names[i], cellW)
		if len(legend) > 0 {
			// Cut short somewhere: the number finds the sample in full under the grid.
			name = sampleIndex(c) + trimName(a.Data.Names[i], cellW-7*len(sampleIndex(c)))
		}
		g.text(x, y+cellH+13*(len(lines)+1), gridMuted, name)
	}
	y += cellH + gridCaption + gridGap

	heading := "Base and features (base + feature)"
	switch {
	case a.IsClustering():
		heading = "Cluster centres"
	case a.BaseIndex() < 0:
		heading = "Features (" + NoBase + ")"
	}
	g.text(gridGap, y+12, gridMuted, heading)
	y += 18
	for c, f := range feats {
		x := gridGap + c*(cellW+gridGap)
		g.picture(a, x, y, cellW, cellH, func() image.Image { return f.Image })
		caption := featureLabel(f)
		if SeparationText(f) == "gradual" {
			caption += ", gradual" // on the caption's line: the figures' line is full
		}
		g.text(x, y+cellH+13, gridInk, trimEnd(caption, cellW))
		g.text(x, y+cellH+26, gridMuted, trimEnd(fmt.Sprintf("%d images", f.Owners), cellW))
		if t := TrustText(f); t != "" {
			g.text(x, y+cellH+39, gridMuted, trimEnd(t, cellW))
		}
	}
	y += cellH + gridCaption + gridGap
	if rows == 3 {
		g.text(gridGap, y+12, gridMuted, "Features alone (red: brighter, blue: darker)")
		y += 18
		for c, f := range feats {
			if f.Signed == nil {
				continue
			}
			x := gridGap + c*(cellW+gridGap)
			g.picture(a, x, y, cellW, cellH, func() image.Image { return f.Signed })
			g.text(x, y+cellH+13, gridInk, trimEnd(fmt.Sprintf("#%d alone", f.Index+1), cellW))
		}
		y += cellH + gridCaption + gridGap
	}
	if len(legend) > 0 {
		g.text(gridGap, y+12, gridMuted, "The sample images in full")
		y += 18
		for l, line := range legend {
			g.text(gridGap, y+13*(l+1), gridInk, line)
		}
	}
	g.drawPictures(a.Workers())
	return img, g.boxes
}

// gridPainter draws the grid's pictures and text and keeps the box each covers.
type gridPainter struct {
	img      *image.NRGBA
	boxes    []image.Rectangle
	pictures []func() // each draws one picture into its own box
}

// picture places the picture src gives in the w×h box at x, y; drawPictures draws it.
func (g *gridPainter) picture(a *result.Analysis, x, y, w, h int, src func() image.Image) {
	g.pictures = append(g.pictures, func() { drawCell(a, g.img, x, y, w, h, src()) })
	g.boxes = append(g.boxes, image.Rect(x, y, x+w, y+h))
}

// drawPictures draws the pictures placed so far side by side, on up to workers
// goroutines: their boxes never overlap one another or the text
// (TestGridTextNeverOverlaps), so each writes only its own pixels.
func (g *gridPainter) drawPictures(workers int) {
	parallel.For(workers, len(g.pictures), func(_, i int) { g.pictures[i]() })
	g.pictures = nil
}

// fill paints every pixel of img with c.
func fill(img *image.NRGBA, c color.NRGBA) {
	b := img.Bounds()
	if b.Empty() {
		return
	}
	row := img.Pix[:4*b.Dx()]
	for x := 0; x < len(row); x += 4 {
		row[x], row[x+1], row[x+2], row[x+3] = c.R, c.G, c.B, c.A
	}
	for y := 1; y < b.Dy(); y++ {
		copy(img.Pix[y*img.Stride:], row)
	}
}

// text draws s with its baseline at y; its box is the 7×13 font's: 11 pixels above the
// baseline, 2 below, 7 across per character.
func (g *gridPainter) text(x, y int, c color.Color, s string) {
	drawText(g.img, x, y, c, s)
	g.boxes = append(g.boxes, image.Rect(x, y-11, x+7*len([]rune(s)), y+2))
}

// sampleIndex numbers a sample's caption, "3 ", for the legend under the grid.
func sampleIndex(c int) string { return fmt.Sprintf("%d ", c+1) }

// sampleLegend lists the samples whose code or name their cell of cellW pixels cuts
// short — a code of hundreds of features, a long file name — in full, in lines of px
// pixels: "3 a_long_name.png: 0110…", wrapped where a line is full. None when every
// caption is whole.
func sampleLegend(a *result.Analysis, samples []int, codes []string, cellW, px int) []string {
	cut := false
	for _, i := range samples {
		lines := codeLines(codes[i], cellW)
		cut = cut || strings.Join(lines, "") != codes[i] || trimName(a.Data.Names[i], cellW) != a.Data.Names[i]
	}
	if !cut {
		return nil
	}
	per := max(px/7, 8)
	var legend []string
	for c, i := range samples {
		legend = append(legend, wrapRunes(sampleIndex(c)+a.Data.Names[i]+": "+codes[i], per)...)
	}
	return legend
}

// wrapRunes breaks text into lines of at most per characters, at spaces where a line
// has one past its middle, else mid-word (codes and file names have no spaces).
func wrapRunes(text string, per int) []string {
	var lines []string
	r := []rune(text)
	for len(r) > per {
		cut := per
		if sp := strings.LastIndex(string(r[:per+1]), " "); sp >= 0 {
			if at := len([]rune(string(r[:per+1])[:sp])); at > per/2 {
				cut = at
			}
		}
		lines = append(lines, strings.TrimRight(string(r[:cut]), " "))
		r = []rune(strings.TrimLeft(string(r[cut:]), " "))
	}
	return append(lines, string(r))
}

// featureLabel is "base", "#3 adds", "#3 removes", "#3 darkens", "#3 pattern" (how the feature reads
// against the base, or the mean image when there is none: result.Analysis.Features) or
// "cluster #2".
func featureLabel(f result.Feature) string {
	switch {
	case f.Base:
		return "base"
	case f.Effect != "":
		return fmt.Sprintf("#%d %s", f.Index+1, f.Effect)
	case f.Signed != nil:
		return fmt.Sprintf("#%d", f.Index+1)
	default:
		return fmt.Sprintf("cluster #%d", f.Index+1)
	}
}

// ExplainedText words the share of the data's variation a feature explains
// ("explains 12.3%"), or "" for the base and clusters, which explain none on their own.
func ExplainedText(f result.Feature) string {
	if f.Base || f.Signed == nil {
		return ""
	}
	return fmt.Sprintf("explains %.1f%%", 100*f.Explained)
}

// StabilityText words how reproducible a feature is ("stable 75%": held by 3 of the 4
// half-sample fits, pipeline.StabilityHalves), or "" when it was not checked.
func StabilityText(f result.Feature) string {
	if f.Stability < 0 {
		return ""
	}
	return fmt.Sprintf("stable %.0f%%", 100*f.Stability)
}

// SeparationText words whether a feature's images split cleanly into those that show
// it and those that do not: "on/off" for an object that comes and goes, "gradual" for a
// change by degrees cut in two (exposure, a shift), which is no object; "" for the base
// and clusters.
func SeparationText(f result.Feature) string {
	switch {
	case math.IsNaN(f.Separation) || f.Base || f.Signed == nil:
		return ""
	case f.Separation >= features.SeparationClear:
		return "on/off"
	}
	return "gradual"
}

// NoBase is what the grid's heading and the window's Features tab say of a feature
// learner's result that has no base (result.Analysis.BaseIndex −1): each feature is then
// drawn added to the mean image.
const NoBase = "no feature is owned by every image, so there is no base"

// NoBaseSentence is NoBase as the window's sentence, with how the features are drawn.
func NoBaseSentence() string {
	return strings.ToUpper(NoBase[:1]) + NoBase[1:] + ": each feature is drawn added to the mean image."
}

// TrustText is ExplainedText and StabilityText on one short line for the grid:
// "12.3%, stable 75%".
func TrustText(f result.Feature) string {
	var parts []string
	if ExplainedText(f) != "" {
		parts = append(parts, fmt.Sprintf("%.1f%%", 100*f.Explained))
	}
	if s := StabilityText(f); s != "" {
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// FeatureLabel is the caption of a feature in the window and the exports.
func FeatureLabel(f result.Feature) string { return featureLabel(f) }

// SampleImages picks up to n images to show, the first image of each distinct code first.
func SampleImages(a *result.Analysis, n int) []int {
	codes := a.Codes()
	seen := map[string]bool{}
	var picked []int
	for i, c := range codes {
		if len(picked) == n {
			return picked
		}
		if !seen[c] {
			seen[c] = true
			picked = append(picked, i)
		}
	}
	for i := range codes {
		if len(picked) == n {
			break
		}
		if !slices.Contains(picked, i) {
			picked = append(picked, i)
		}
	}
	return picked
}

// cellSize scales the data set's picture size to the grid cell, keeping the aspect ratio.
func cellSize(a *result.Analysis) (int, int) {
	w, h := a.Data.Width, a.Data.Height
	if w >= h {
		return gridCell, max(1, gridCell*h/w)
	}
	return max(1, gridCell*w/h), gridCell
}

func drawCell(a *result.Analysis, dst *image.NRGBA, x, y, w, h int, src image.Image) {
	filter := imaging.Lanczos
	if src.Bounds().Dx() < w/2 {
		filter = imaging.NearestNeighbor // keep tiny pictures (6×6 tetris, 14×14 dice) crisp
	}
	scaled := imgproc.Resize(src, w, h, filter)
	draw.Draw(dst, image.Rect(x, y, x+w, y+h), scaled, image.Point{}, draw.Src)
}

func drawText(dst draw.Image, x, y int, c color.Color, s string) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(gridText.Replace(s))
}

// gridText spells out the symbols of the notes and captions that the grid's font
// (basicfont's 7×13, ASCII only) has no glyph for: λ² would be drawn as two boxes.
var gridText = strings.NewReplacer("λ", "lambda", "²", "^2", "σ", "sigma", "α", "alpha", "×", "x", "·", ".", "±", "+/-",
	"−", "-", "–", "-", "—", "-", "…", "...", "≥", ">=", "≤", "<=", "≈", "~", "’", "'", "“", "\"", "”", "\"")

// codeLines breaks a code into the lines of px pixels of the grid's 7-pixel font it takes,
// two at most, the second cut short with ".." when the code is longer still (an IBP's
// 156 features): a code drawn on one line ran over the next pictures' captions.
func codeLines(code string, px int) []string {
	per := max(px/7, 4)
	if len(code) <= per {
		return []string{code}
	}
	return []string{code[:per], trimEnd(code[per:], px)}
}

// trimEnd cuts a caption to what px pixels of the grid's 7-pixel font hold, keeping its
// start (the feature's number), so that it never runs into the next cell.
func trimEnd(text string, px int) string {
	maxRunes := px / 7
	r := []rune(text)
	if len(r) <= maxRunes || maxRunes < 4 {
		return text
	}
	return string(r[:maxRunes-2]) + ".."
}

// trimName shortens a file name to fit a cell of width px in the 7-pixel font, keeping
// its end (the extension and what tells similar names apart).
func trimName(name string, px int) string {
	maxRunes := px / 7
	r := []rune(name)
	if len(r) <= maxRunes || maxRunes < 4 {
		return name
	}
	return "..." + string(r[len(r)-maxRunes+3:]) // the 7×13 font has ASCII only
}
