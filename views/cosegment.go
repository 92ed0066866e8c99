package views

import (
	"context"
	"fmt"
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms"
	"featurelab/app"
)

// cosegmentKey is the co-segmentation's name among the forms' parameters and jobs.
const cosegmentKey = "cosegment"

// cosegmentView segments the open data set's images together (the hard HDP) and shows
// every image in its global clusters' colours beside a legend of the clusters; choosing
// a cluster in the legend marks it in every image.
type cosegmentView struct {
	ui *UI

	params  *paramSet
	byKey   map[string]*param
	more    *moreOptions
	form    *widget.Form
	help    *widget.Label // the whole hint of the field with the focus
	message *widget.Label
	runBtn  *widget.Button
	saveBtn *widget.Button
	allBtn  *widget.Button // shows every cluster again
	legend  *escList
	grid    *escGridWrap
	info    *widget.Label
	infoFig *infoMark        // what the figures of info and the legend are
	column  *container.Split // the form above the legend
	box     fyne.CanvasObject

	// UI goroutine only.
	running   bool
	result    *app.Cosegmentation
	entries   []app.ClusterLegend
	highlight int                 // the cluster marked in every image, −1 for none
	tiles     map[int]image.Image // the tiles drawn for the current highlight
}

// cosegmentTileSide is the longest side of an image's tile in the view.
const cosegmentTileSide = 150

func newCosegmentView(ui *UI) *cosegmentView {
	v := &cosegmentView{ui: ui, highlight: -1}
	v.help = widget.NewLabel("")
	v.help.Wrapping = fyne.TextWrapWord
	v.help.Importance = widget.LowImportance
	v.params = newParamSet([]family{{cosegmentKey, algorithms.Cosegmenter.Fields()}},
		func() { v.validate() }, v.help.SetText)
	v.byKey = v.params.byKey
	var more []*widget.FormItem
	v.form = widget.NewForm()
	v.form.Items, more = v.params.show(ui.fyneApp.Preferences(), cosegmentKey, cosegmentKey)
	v.more = newMoreOptions()
	v.more.set(more)
	v.message = widget.NewLabel("")
	v.message.Importance = widget.DangerImportance
	v.message.Wrapping = fyne.TextWrapWord
	v.message.Hide()
	v.runBtn = widget.NewButtonWithIcon("Co-segment", theme.MediaPlayIcon(), v.start)
	v.runBtn.Importance = widget.HighImportance
	v.saveBtn = widget.NewButtonWithIcon("Save images…", theme.DocumentSaveIcon(), v.chooseSave)
	v.saveBtn.Disable()
	v.allBtn = widget.NewButton("Show all clusters", func() { v.legend.UnselectAll(); v.setHighlight(-1) })
	v.allBtn.Disable()

	v.legend = newList(func() int { return len(v.entries) }, newLegendRow,
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < len(v.entries) {
				setLegendRow(o, v.entries[id])
			}
		})
	v.legend.OnSelected = func(id widget.ListItemID) {
		if id < len(v.entries) {
			v.setHighlight(v.entries[id].Cluster)
		}
	}
	v.grid = newGridWrap(func() int { return v.count() }, newThumbCell,
		func(id widget.GridWrapItemID, o fyne.CanvasObject) {
			if id < v.count() {
				setThumbCell(o, v.tile(id), v.result.Names[id])
			}
		})
	// A tap enlarges the image as shown, at its working size; the selection is dropped
	// so that the same image opens again on the next tap.
	v.grid.OnSelected = func(id widget.GridWrapItemID) {
		v.grid.UnselectAll()
		if id < v.count() {
			showZoom(ui.win, v.result.Names[id], v.result.Tile(id, v.highlight, 0))
		}
	}
	v.info = widget.NewLabel("Co-segment the open images: each image's segments are tied to global clusters shared by all of them, so one cluster is the same stuff in every image.")
	v.info.Wrapping = fyne.TextWrapWord
	v.infoFig = newInfoMark()

	legendTitle := widget.NewLabelWithStyle("Global clusters", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	// The form scrolls above the legend, which gets most of the column once there is a
	// result (finish): below a fixed form the legend would show two rows at 1024×700.
	v.column = container.NewVSplit(container.NewVScroll(container.NewVBox(v.form, v.more.accordion, v.help, v.message)),
		container.NewBorder(legendTitle, nil, nil, nil, v.legend))
	v.column.Offset = 0.75
	// Cancel is the status bar's, as for every job.
	foot := container.NewVBox(v.allBtn, container.NewGridWithColumns(2, v.runBtn, v.saveBtn))
	split := container.NewHSplit(container.NewBorder(nil, foot, nil, nil, v.column),
		container.NewBorder(nil, withInfo(v.info, v.infoFig), nil, nil, v.grid))
	split.Offset = 0.36
	v.box = split
	v.validate()
	return v
}

func (v *cosegmentView) object() fyne.CanvasObject { return v.box }

// count is the number of images shown.
func (v *cosegmentView) count() int {
	if v.result == nil {
		return 0
	}
	return len(v.result.Names)
}

// tile is image i's tile for the current highlight, drawn once.
func (v *cosegmentView) tile(i int) image.Image {
	if t, ok := v.tiles[i]; ok {
		return t
	}
	t := v.result.Tile(i, v.highlight, cosegmentTileSide)
	v.tiles[i] = t
	return t
}

// setHighlight marks cluster g in every image (−1: every cluster in its colour).
func (v *cosegmentView) setHighlight(g int) {
	if g == v.highlight {
		return
	}
	v.highlight = g
	v.tiles = map[int]image.Image{}
	if g < 0 {
		v.allBtn.Disable()
	} else {
		v.allBtn.Enable()
	}
	v.grid.Refresh()
}

// validate shows the first bad field's message and disables Co-segment until it is
// mended, or while there are no images.
func (v *cosegmentView) validate() bool {
	if v.runBtn == nil {
		return true // still being built
	}
	if err := v.params.firstInvalid(cosegmentKey); err != nil {
		v.message.SetText(err.Error())
		v.message.Show()
		v.runBtn.Disable()
		return false
	}
	v.message.Hide()
	if !v.running && v.ui.dataset != nil && v.ui.dataset.prepared != nil {
		v.runBtn.Enable()
	} else {
		v.runBtn.Disable()
	}
	return true
}

// options reads the form through the registry's parser.
func (v *cosegmentView) options() (app.CosegmentOptions, error) {
	return algorithms.Cosegmenter.Parse(v.params.texts(cosegmentKey))
}

// start co-segments the open data set's images in the background.
func (v *cosegmentView) start() {
	prep := v.ui.dataset.prepared
	if prep == nil || !v.validate() {
		return
	}
	v.params.save(v.ui.fyneApp.Preferences(), cosegmentKey, cosegmentKey)
	opt, err := v.options()
	if err != nil {
		v.message.SetText(err.Error())
		v.message.Show()
		return
	}
	v.running = true
	v.runBtn.Disable()
	v.ui.status.busy(app.Progress{Stage: "Co-segmenting"})
	v.ui.jobs.Start(cosegmentKey, func(ctx context.Context) {
		c, err := app.Cosegment(ctx, prep, opt, func(pr app.Progress) {
			fyne.Do(func() { v.ui.status.busy(pr) })
		})
		fyne.Do(func() { v.finish(prep, c, err) })
	})
}

func (v *cosegmentView) finish(prep *app.Prepared, c *app.Cosegmentation, err error) {
	v.ui.status.workDone()
	v.running = false
	v.validate()
	if !v.ui.jobSucceeded(err, cancelledText("Co-segmentation", v.result != nil), "Co-segmentation failed") {
		return
	}
	if prep != v.ui.dataset.prepared {
		v.ui.status.idle("The co-segmentation finished after another folder was opened; it is not shown")
		return
	}
	v.show(c)
	msg := c.Text()
	v.info.SetText(msg + ". Choose a cluster to mark it in every image; tap an image to enlarge it.")
	v.infoFig.set(explainCoseg, explainPrices, explainShare)
	v.ui.status.idle("Co-segmentation: " + msg)
}

// show lists c's clusters and draws its images, no cluster marked.
func (v *cosegmentView) show(c *app.Cosegmentation) {
	v.result = c
	v.entries = nil
	if c != nil {
		v.entries = c.Legend()
	}
	v.highlight = -2 // so that setHighlight redraws
	v.legend.UnselectAll()
	v.legend.Refresh()
	v.setHighlight(-1)
	if c != nil {
		v.saveBtn.Enable()
		v.column.SetOffset(0.3)
	} else {
		v.saveBtn.Disable()
	}
}

// datasetChanged drops the co-segmentation of the previous data set: its clusters are
// other images'.
func (v *cosegmentView) datasetChanged() {
	v.show(nil)
	v.infoFig.set()
	v.info.SetText("Press Co-segment to segment the open images together.")
	v.validate()
}

// chooseSave asks for a folder and writes cosegments.png and each image's labels.png and
// segments.png there.
func (v *cosegmentView) chooseSave() {
	c := v.result
	if c == nil {
		return
	}
	v.ui.askExportFolder(c.ExistingOutputs, v.ui.SaveCosegmentation)
}

// SaveCosegmentation writes the shown co-segmentation's images to dir in the background.
func (ui *UI) SaveCosegmentation(dir string) {
	c := ui.coseg.result
	if c == nil {
		return
	}
	ui.saveImagesTo(dir, "co-segmentation", c.WriteOutputs)
}

// newLegendRow is a legend row: the cluster's colour, its mean colour, and a line.
func newLegendRow() fyne.CanvasObject {
	swatch := func() *canvas.Rectangle {
		r := canvas.NewRectangle(color.Black)
		r.SetMinSize(fyne.NewSize(20, 20))
		return r
	}
	text := widget.NewLabel("")
	text.Truncation = fyne.TextTruncateEllipsis
	return container.NewBorder(nil, nil, container.NewHBox(swatch(), swatch()), nil, text)
}

func setLegendRow(o fyne.CanvasObject, e app.ClusterLegend) {
	c := o.(*fyne.Container)
	for _, obj := range c.Objects {
		switch w := obj.(type) {
		case *fyne.Container: // the two swatches
			w.Objects[0].(*canvas.Rectangle).FillColor = e.Colour
			w.Objects[1].(*canvas.Rectangle).FillColor = e.Mean
			w.Refresh()
		case *widget.Label:
			w.SetText(fmt.Sprintf("%s · %.0f%%", imagesText(e.Images), 100*e.Share))
		}
	}
}
