package views

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"featurelab/app"
)

// featuresView shows the base and every feature: base+feature, the feature alone on a
// diverging colour map, add/subtract, and how many images own it.
type featuresView struct {
	ui      *UI
	header  *widget.Label
	info    *infoMark       // what the header's and the cards' figures are
	path    *fyne.Container // a stepwise run's λ² path: pathLabel and pathPlot, or nothing
	pathLbl *widget.Label
	plot    *pathPlot
	// asFound switches between the readable form and the learner's own (pipeline.Reading);
	// hidden when the two are the same. syncing is set while show sets it.
	asFound *escCheck
	syncing bool
	cards   *fyne.Container
	// clusters is set while a clustering's cards are made: they have no feature alone
	// and no figures but their images, and are shorter.
	clusters bool
	minor    *minorFold        // the minor features, folded under one entry below the cards
	scroll   *container.Scroll // the whole tab, back at the top for every new result
	buttons  []*widget.Button
	box      fyne.CanvasObject
	// applied is the folder coded with the features when its images are counted under
	// them (nil: the images learned on); back returns to those.
	applied *app.AppliedFolder
	back    *widget.Button
}

const featureCell = 150

// featureCard is the size of one feature's card: its picture, the feature alone, the
// caption, the figures and Show owners.
var featureCard = fyne.NewSize(featureCell+16, 2*featureCell+152)

const featuresHint = "Run an algorithm to see its features."

func newFeaturesView(ui *UI) *featuresView {
	v := &featuresView{ui: ui}
	v.header = widget.NewLabel(featuresHint)
	v.header.Wrapping = fyne.TextWrapWord
	v.info = newInfoMark()
	v.cards = container.New(layout.NewGridWrapLayout(featureCard))
	v.minor = newMinorFold(v.card)
	v.path = container.NewVBox()
	v.pathLbl = widget.NewLabel("")
	v.pathLbl.Wrapping = fyne.TextWrapWord
	v.plot = newPathPlot(func(k int) { v.ui.showPathK(k) })
	v.asFound = newCheck("Show as found (the learner's own base and signs)", func(on bool) {
		if !v.syncing {
			v.ui.showReading(on)
		}
	})
	v.asFound.Hide()
	v.back = widget.NewButton("Back to the training images", func() { v.ui.showTraining() })
	v.back.Hide()
	// The header, the reading switch and the λ² path scroll with the cards: fixed above
	// them they would leave the cards less than one card's height of a 1024×700 window.
	v.scroll = container.NewVScroll(container.NewVBox(withInfo(v.header, v.info), container.NewHBox(v.back), v.asFound, v.path, v.cards, v.minor.box))
	v.box = v.scroll
	return v
}

func (v *featuresView) object() fyne.CanvasObject { return v.box }

func featureImage(img image.Image) *canvas.Image {
	c := canvas.NewImageFromImage(img)
	c.FillMode = canvas.ImageFillContain
	c.ScaleMode = canvas.ImageScaleFastest
	c.SetMinSize(fyne.NewSize(featureCell, featureCell*3/4))
	return c
}

// zoomable makes a feature's picture open in the zoom viewer, titled title.
func (v *featuresView) zoomable(pic *canvas.Image, title string) *zoomImage {
	return newZoomImage(v.ui.win, pic, func() (string, image.Image) { return title, nil })
}

// clear empties the view when the data set changes.
func (v *featuresView) clear() {
	v.header.SetText(featuresHint)
	v.info.set()
	v.path.Objects = nil
	v.path.Refresh()
	v.cards.Objects = nil
	v.buttons = nil
	v.cards.Refresh()
	v.minor.clear()
	v.asFound.Hide()
	v.applied = nil
	v.back.Hide()
}

// show lays out the features of a presentation; call on the UI goroutine.
func (v *featuresView) show(p *app.Presentation) {
	v.applied = nil
	v.back.Hide()
	v.lay(p)
}

// showApplied lays out the features of p with the images of the folder f, coded with
// them, counted under each; call on the UI goroutine.
func (v *featuresView) showApplied(p *app.Presentation, f *app.AppliedFolder) {
	v.applied = f
	v.back.Show()
	v.lay(p)
}

// lay lays out the features of p, counting the owners among the images shown.
func (v *featuresView) lay(p *app.Presentation) {
	a := p.Analysis
	note := p.KNote // beside the λ² path, unless it speaks of the whole folder
	if p.NoObjects {
		note = ""
	}
	v.showPath(a, note)
	v.syncing = true
	v.asFound.SetChecked(a.AsFound)
	v.syncing = false
	if a.Other != nil {
		v.asFound.Show()
	} else {
		v.asFound.Hide()
	}
	scores := ""
	if fs, ok := a.FolderScores(); ok {
		scores = "; " + fs.String()
	}
	// Clusters have no "feature alone", no on/off: each is the mean of its images.
	how := "Each cluster's picture is the mean of its images. Tap “Show owners” to highlight the images in a cluster."
	kind := "clusters"
	if !a.IsClustering() {
		kind = "features"
		how = "Under each feature, the feature alone: red where it brightens, blue where it darkens; “on/off” when its images split cleanly into those with it and those without, “gradual” when they do not (lighting, a shift: not an object). Tap “Show owners” to highlight the images that own a feature."
	}
	header := fmt.Sprintf("%s — %d %s, %s%s. %s",
		a.Algorithm.Title, a.Result.K, kind, app.ObjectiveText(a), scores, how)
	if !a.IsClustering() && a.BaseIndex() < 0 {
		header += " " + app.NoBaseSentence()
	}
	if p.NoObjects {
		// The captions then say "pattern", which the sentence on on/off and gradual does not.
		header = p.KNote + ". A feature captioned “pattern” is a picture a group of them shares, not an object.\n" + header
	}
	if f := v.applied; f != nil {
		header = fmt.Sprintf("Showing the applied folder %s: the counts under each feature and Show owners are of its %s (%d not explained by the features), not of the images learned on.\n%s",
			f.Applied.Dir, imagesText(len(f.Codes)), f.Applied.Unexplained, header)
	}
	v.header.SetText(header)
	v.info.set(featureFigures(p)...)
	v.cards.Objects = nil
	v.buttons = nil
	v.clusters = a.IsClustering()
	cell := featureCard
	for _, f := range p.Features[:len(p.Features)-p.Minor] {
		c := v.card(f)
		v.cards.Add(c)
		if v.clusters {
			// As tall as a cluster's card is: the feature's card would leave a blank
			// picture and blank lines under each, and at 1024×700 only one row would show.
			cell.Height = c.MinSize().Height
		}
	}
	v.cards.Layout = layout.NewGridWrapLayout(cell)
	v.minor.set(p)
	v.cards.Refresh()
	v.scroll.ScrollToTop()
}

// featureFigures is the lines of what the Features tab's figures are, for those p shows.
func featureFigures(p *app.Presentation) []string {
	a := p.Analysis
	lines := []string{explainObjective}
	if a.Algorithm.Uses("lambda2") {
		lines = append(lines, explainPenalised, explainLambda2)
	}
	if len(a.Path()) > 0 {
		lines = append(lines, explainPath)
	}
	if _, ok := a.FolderScores(); ok {
		lines = append(lines, explainNMI, explainARI)
	}
	lines = append(lines, explainOwners)
	var explained, stable, separation bool
	for _, f := range p.Features {
		explained = explained || app.ExplainedText(f) != ""
		stable = stable || app.StabilityText(f) != ""
		separation = separation || app.SeparationText(f) != ""
	}
	for _, l := range []struct {
		shown bool
		line  string
	}{{explained, explainExplained}, {stable, explainStable}, {separation, explainOnOff}} {
		if l.shown {
			lines = append(lines, l.line)
		}
	}
	return lines
}

// card is one feature's card: its picture, the feature alone, its caption and figures,
// and Show owners, whose button joins v.buttons.
func (v *featuresView) card(f app.Feature) fyne.CanvasObject {
	title := widget.NewLabelWithStyle(app.FeatureLabel(f), fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	// The base explains nothing on its own; blank lines keep the buttons in line.
	figures := v.ownersText(f) + "\n" + cmp.Or(app.ExplainedText(f), " ") + "\n" + cmp.Or(app.StabilityText(f), " ") +
		"\n" + cmp.Or(app.SeparationText(f), " ")
	if v.clusters {
		figures = v.ownersText(f)
	}
	owners := widget.NewLabelWithStyle(figures, fyne.TextAlignCenter, fyne.TextStyle{})
	parts := []fyne.CanvasObject{v.zoomable(featureImage(f.Image), app.FeatureLabel(f))}
	switch {
	case v.clusters:
	case f.Signed != nil:
		parts = append(parts, v.zoomable(featureImage(f.Signed), app.FeatureLabel(f)+" alone (diverging colours)"))
	default:
		// An empty cell of the same size keeps the base's labels in line with the others'.
		blank := canvas.NewRectangle(color.Transparent)
		blank.SetMinSize(fyne.NewSize(featureCell, featureCell*3/4))
		parts = append(parts, blank)
	}
	btn := widget.NewButton("Show owners", func() { v.ui.highlightFeature(f.Index) })
	v.buttons = append(v.buttons, btn)
	parts = append(parts, title, owners, btn)
	return container.NewVBox(parts...)
}

// ownersText is how many of the images shown own f: "12 images", or of an applied
// folder's "3 new images".
func (v *featuresView) ownersText(f app.Feature) string {
	if v.applied == nil {
		return imagesText(f.Owners)
	}
	return app.CountText(len(v.applied.Owners[f.Index]), "new image")
}

// showPath draws a stepwise run's λ² path, the K shown marked; a click on the plot
// shows another K's fit at once (UI.showPathK). note is the presentation's KNote.
func (v *featuresView) showPath(a *app.Analysis, note string) {
	v.path.Objects = nil
	if path := a.Path(); len(path) > 0 {
		text := pathText(path, a.Result.K)
		if note != "" {
			text += "\n" + note + "."
		}
		v.pathLbl.SetText(text)
		v.plot.set(path, a.Result.K)
		v.path.Objects = []fyne.CanvasObject{container.NewBorder(nil, nil, v.plot, nil, v.pathLbl)}
	}
	v.path.Refresh()
}

// pathText explains the path plot and names the shown K's λ² interval.
func pathText(path []app.PathEntry, k int) string {
	s := "λ² path: the best K for each price λ² of a feature. Click the plot to show another K, without running again."
	for _, e := range path {
		if e.K != k {
			continue
		}
		switch {
		case math.IsInf(e.High, 1):
			s += fmt.Sprintf("\nK = %d is best for λ² > %.3g.", e.K, e.Low)
		case !(e.Low > 0):
			s += fmt.Sprintf("\nK = %d is best for λ² < %.3g.", e.K, e.High)
		default:
			s += fmt.Sprintf("\nK = %d is best for λ² from %.3g to %.3g.", e.K, e.Low, e.High)
		}
	}
	return s
}

// showReading shows the shown result in the other reading — the learner's own Z and A
// (asFound) or the readable form — without running again; the pictures are made in the
// background.
func (ui *UI) showReading(asFound bool) {
	if ui.pres == nil || ui.pres.Analysis.AsFound == asFound || ui.pres.Analysis.Other == nil {
		return
	}
	a := ui.pres.Analysis
	ui.jobs.Start("present", func(context.Context) {
		pres := app.OtherReading(a)
		fyne.Do(func() {
			if ui.showAnalysis(pres) {
				ui.status.idle(fmt.Sprintf("Showing the features %s: the codes, the CSV and the JSON follow", pres.Analysis.ReadingName()))
			}
		})
	})
}

// showPathK shows the fit at K of the shown stepwise run's λ² path, which the run kept:
// no learner runs again; only the pictures are made, in the background.
func (ui *UI) showPathK(k int) {
	if ui.pres == nil || ui.pres.Analysis.Result.K == k {
		return
	}
	a := ui.pres.Analysis
	ui.jobs.Start("present", func(context.Context) {
		pres, err := app.PathAt(a, k)
		fyne.Do(func() {
			if err != nil {
				dialog.ShowError(err, ui.win)
				return
			}
			if ui.showAnalysis(pres) {
				ui.status.idle(fmt.Sprintf("Showing K = %d of the λ² path (%s), without running again", k, app.ObjectiveText(pres.Analysis)))
			}
		})
	})
}

// imagesText is "1 image" or "n images".
func imagesText(n int) string { return app.CountText(n, "image") }
