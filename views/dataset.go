package views

import (
	"context"
	"errors"
	"fmt"
	"image"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"featurelab/app"
	"featurelab/assets"
)

// Preference keys of the dataset panel.
const (
	prefLastFolder = "lastFolder"
	prefColour     = "load.colour"
	prefSize       = "load.size"
	prefPCA        = "load.pca"
	prefExposure   = "load.exposure"
)

// datasetPanel opens folders and built-in samples and shows the images as thumbnails.
type datasetPanel struct {
	ui *UI

	open    *widget.Button
	samples *escSelect
	colour  *escSelect
	size    *hintEntry
	pca     *hintEntry
	// exposure is app.ExposureChoices: divide each picture's exposure out, or not.
	exposure *escSelect
	reload   *widget.Button
	message  *widget.Label
	info     *widget.Label
	infoFig  *infoMark     // what the figures of info are
	working  *widget.Label // the working size chosen and why
	// skipped lists the files the load skipped, at most skippedLines lines tall: a
	// folder of 34 stray files must not make the window taller than the screen.
	skipped *skippedList
	grid    *escGridWrap
	box     fyne.CanvasObject

	// Set on the UI goroutine only.
	source   app.Source // what is open, or being opened
	prepared *app.Prepared
	names    []string // the images the grid shows: the prepared ones, or a preview's
	thumbs   []image.Image
	previous *datasetShown // what to go back to if the previewed data set fails its PCA

	openDialog *pathDialog           // the last open-folder dialog shown (tests drive it)
	oneImage   *dialog.ConfirmDialog // the last offer to segment a folder's only picture
	loaded     app.LoadChoices       // the options the data set shown was loaded with

	// prepare is what the load job calls: app.Prepare (window tests share
	// one prepared sample between their windows).
	prepare app.Preparer
}

func newDatasetPanel(ui *UI) *datasetPanel {
	p := &datasetPanel{ui: ui, prepare: app.Prepare}
	p.open = widget.NewButtonWithIcon("Open folder…", theme.FolderOpenIcon(), p.chooseFolder)
	p.samples = newSelect(assets.Names(), func(name string) {
		if name != "" {
			ui.LoadSample(name)
		}
	})
	p.samples.PlaceHolder = "Built-in samples"
	prefs := ui.fyneApp.Preferences()
	p.colour = newSelect(app.ColourChoices, func(string) { p.validate() })
	p.colour.SetSelected(prefs.StringWithFallback(prefColour, app.ColourAuto))
	p.size = newHintEntry()       // Esc in it cancels, as in the run panel's fields
	p.size.SetPlaceHolder("auto") // the most common size, at most 76 800 pixels (app.DefaultWorkingPixels)
	p.size.SetText(prefs.String(prefSize))
	p.size.OnChanged = func(string) { p.validate() }
	p.pca = newHintEntry()
	p.pca.SetText(prefs.StringWithFallback(prefPCA, fmt.Sprint(app.DefaultPCA)))
	p.pca.OnChanged = func(string) { p.validate() }
	p.exposure = newSelect(app.ExposureChoices, func(string) { p.validate() })
	p.exposure.SetSelected(prefs.StringWithFallback(prefExposure, app.ExposureAuto))
	p.reload = widget.NewButtonWithIcon("Reload", theme.ViewRefreshIcon(), func() { ui.load(p.source) })
	p.message = widget.NewLabel("")
	p.message.Importance = widget.DangerImportance
	p.message.Hide()
	p.info = widget.NewLabel("No images yet")
	p.info.Truncation = fyne.TextTruncateEllipsis
	p.infoFig = newInfoMark()
	p.working = widget.NewLabel("")
	p.working.Wrapping = fyne.TextWrapWord // a long reason must not widen the window
	p.working.Hide()
	p.skipped = newSkippedList()
	p.grid = newGridWrap(
		func() int { return len(p.thumbs) },
		newThumbCell,
		func(id widget.GridWrapItemID, o fyne.CanvasObject) {
			if id < len(p.thumbs) && id < len(p.names) {
				setThumbCell(o, p.thumbs[id], p.names[id])
			}
		},
	)
	// A tap on a thumbnail enlarges it; the selection is dropped at once, so the same
	// thumbnail opens again on the next tap.
	p.grid.OnSelected = func(id widget.GridWrapItemID) {
		p.grid.UnselectAll()
		if id < len(p.thumbs) && id < len(p.names) {
			showZoom(ui.win, p.names[id], p.picture(id))
		}
	}
	top := container.NewBorder(nil, nil, container.NewHBox(p.open, p.samples), p.infoFig, p.info)
	// One row of short labels, and the field's complaint on a line of its own that wraps:
	// long labels and a complaint beside Reload make the tab too wide for an 800×600
	// screen.
	p.message.Wrapping = fyne.TextWrapWord
	options := container.NewHBox(
		widget.NewLabel("Colour"), p.colour,
		widget.NewLabel("Size"), container.NewGridWrap(fyne.NewSize(110, p.size.MinSize().Height), p.size),
		widget.NewLabel("PCA"), container.NewGridWrap(fyne.NewSize(64, p.pca.MinSize().Height), p.pca),
		p.reload)
	// Exposure on a row of its own: beside the others it widens the tab past what an
	// 800×600 screen leaves it.
	exposure := container.NewHBox(widget.NewLabel("Exposure"), p.exposure)
	p.box = container.NewBorder(container.NewVBox(top, options, exposure, p.message, p.working), p.skipped.box, nil, nil, p.grid)
	return p
}

func (p *datasetPanel) object() fyne.CanvasObject { return p.box }

func newThumbCell() fyne.CanvasObject {
	img := canvas.NewImageFromImage(nil)
	img.FillMode = canvas.ImageFillContain
	img.ScaleMode = canvas.ImageScalePixels
	img.SetMinSize(fyne.NewSize(app.ThumbnailSize, app.ThumbnailSize*3/4))
	name := widget.NewLabel("")
	name.Truncation = fyne.TextTruncateEllipsis
	name.Alignment = fyne.TextAlignCenter
	return container.NewBorder(nil, name, nil, nil, img)
}

func setThumbCell(o fyne.CanvasObject, thumb image.Image, name string) {
	c := o.(*fyne.Container)
	for _, obj := range c.Objects {
		switch w := obj.(type) {
		case *canvas.Image:
			w.Image = thumb
			w.Refresh()
		case *widget.Label:
			w.SetText(name)
		}
	}
}

// picture is image i of the grid at the data set's working size, made when asked for; a
// previewed folder's pixels are not read yet, so its thumbnail stands in.
func (p *datasetPanel) picture(i int) image.Image {
	if prep := p.prepared; prep != nil && p.previous == nil && i < len(prep.Data.Names) {
		if img := prep.Data.Image(i); !img.Bounds().Empty() {
			return img
		}
	}
	return p.thumbs[i]
}

func (p *datasetPanel) choices() app.LoadChoices {
	c := app.LoadChoices{Colour: p.colour.Selected, Size: p.size.Text, PCA: p.pca.Text}
	if p.exposure != nil {
		c.Exposure = p.exposure.Selected
	}
	return c
}

// validate shows what is wrong with the loading options and disables Reload until it is
// mended; the choices that are right are remembered.
func (p *datasetPanel) validate() bool {
	if p.message == nil || p.reload == nil {
		return true // still being built
	}
	if _, err := p.choices().Request(p.source); err != nil {
		p.message.SetText(err.Error())
		p.message.Show()
		p.reload.Disable()
		return false
	}
	p.message.Hide()
	p.reload.Enable()
	c, prefs := p.choices(), p.ui.fyneApp.Preferences()
	prefs.SetString(prefColour, c.Colour)
	prefs.SetString(prefSize, c.Size)
	prefs.SetString(prefPCA, c.PCA)
	prefs.SetString(prefExposure, c.Exposure)
	return true
}

// datasetShown is what the grid and the info line show.
type datasetShown struct {
	names   []string
	thumbs  []image.Image
	info    string
	working string // the working size's reason, "" when hidden
	skipped string // the skipped-files list, "" when hidden
}

// preview shows freshly decoded images while their PCA is computed, remembering what was
// shown before in case the PCA fails or is cancelled; call on the UI goroutine.
func (p *datasetPanel) preview(src app.Source, names []string, thumbs []image.Image) {
	if p.previous == nil {
		p.previous = &datasetShown{p.names, p.thumbs, p.info.Text, p.working.Text, p.skipped.text()}
	}
	p.names, p.thumbs = names, thumbs
	// The folder's own skips are known once it has loaded; the last one's would mislead.
	p.setSkipped("")
	p.working.SetText("")
	p.working.Hide()
	p.info.SetText(fmt.Sprintf("%s — %d images; reading their pixels and computing the PCA…", src, len(names)))
	p.grid.Refresh()
	p.grid.ScrollToTop()
}

// restore goes back to the data set shown before a preview.
func (p *datasetPanel) restore() {
	if p.previous == nil {
		return
	}
	p.names, p.thumbs = p.previous.names, p.previous.thumbs
	p.info.SetText(p.previous.info)
	if p.previous.working != "" {
		p.working.SetText(p.previous.working)
		p.working.Show()
	}
	p.setSkipped(p.previous.skipped)
	p.previous = nil
	p.grid.Refresh()
}

// show puts a freshly loaded data set on screen; call on the UI goroutine.
func (p *datasetPanel) show(prep *app.Prepared) {
	p.prepared, p.thumbs, p.names, p.previous = prep, prep.Thumbnails(), prep.Data.Names, nil
	ds := prep.Data
	colour := "colour"
	if ds.Channels == 1 {
		colour = "grey"
	}
	dims := fmt.Sprintf("%d PCA components", prep.PCA.D)
	p.infoFig.set(explainPCA)
	if n := len(ds.Names); prep.PCA.D == n-1 {
		// The PCA field may ask for more, and the line says fewer: the mark says why.
		p.infoFig.set(explainPCA, fmt.Sprintf("At most %d: %s vary along at most %s, whatever the PCA field asks",
			n-1, imagesText(n), app.CountText(n-1, "direction")))
	}
	if prep.PCA.Identity {
		dims = "no PCA (pixels as they are)"
		p.infoFig.set()
	}
	// The figures first, the source last: it is what the line cuts short when the
	// window is narrow (a long path first would cut the figures off).
	p.info.SetText(fmt.Sprintf("%s, %d×%d %s, %s — %s",
		imagesText(len(ds.Names)), ds.Width, ds.Height, colour, dims, prep.Source))
	p.working.SetText("Working size " + ds.SizeReason() + ". Set Size to choose another. " + prep.Exposure.Note())
	p.working.Show()
	if len(ds.Skipped) > 0 {
		lines := make([]string, 0, len(ds.Skipped)+1)
		lines = append(lines, "Skipped "+app.CountText(len(ds.Skipped), "file")+":")
		for _, s := range ds.Skipped {
			lines = append(lines, s.Path+": "+s.Reason)
		}
		p.setSkipped(strings.Join(lines, "\n"))
	} else {
		p.setSkipped("")
	}
	p.grid.Refresh()
	p.grid.ScrollToTop()
}

// setSkipped shows text as the skipped-files list, or hides the list when text is "".
func (p *datasetPanel) setSkipped(text string) { p.skipped.set(text) }

// LoadSample loads a built-in sample in the background.
func (ui *UI) LoadSample(name string) {
	ui.load(app.Source{Sample: name})
}

// LoadFolder loads a folder in the background and, once it has loaded, remembers it first
// among the recent folders.
func (ui *UI) LoadFolder(dir string) { ui.LoadFolderThen(dir, nil) }

// LoadFolderThen is LoadFolder, then restores the saved analysis s on it (nil: none).
func (ui *UI) LoadFolderThen(dir string, s *app.SavedAnalysis) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // a recent folder must mean the same from wherever the next start is
	}
	// The path field starts from it next time, loaded or not: a mistyped path is there to
	// correct. Recent folders only list folders that loaded (/etc once joined them).
	ui.fyneApp.Preferences().SetString(prefLastFolder, dir)
	ui.loadThen(app.Source{Dir: dir}, s)
}

// rememberFolder puts dir first among the recent folders.
func (ui *UI) rememberFolder(dir string) {
	prefs := ui.fyneApp.Preferences()
	recent := []string{dir}
	for _, d := range prefs.StringList(prefRecentFolders) {
		if d != dir && len(recent) < maxRecentFolders {
			recent = append(recent, d)
		}
	}
	prefs.SetStringList(prefRecentFolders, recent)
	ui.refreshMenu()
}

// prefRecentFolders lists the folders opened last, the newest first; maxRecentFolders
// is how many File → Recent folders offers.
const (
	prefRecentFolders = "recentFolders"
	maxRecentFolders  = 8
)

// dropped loads what the user drops on the window: a folder, or the folder of a
// dropped file. Anything that is not on the local file system is ignored.
func (ui *UI) dropped(_ fyne.Position, uris []fyne.URI) {
	for _, u := range uris {
		if u.Scheme() != "file" {
			continue
		}
		if dir, err := folderPath(u.Path()); err == nil {
			ui.LoadFolder(dir)
			return
		}
	}
}

func (ui *UI) load(src app.Source) { ui.loadThen(src, nil) }

// loadThen loads src in the background; when saved is not nil, its analysis is then
// restored on the data set (not run again) and shown.
func (ui *UI) loadThen(src app.Source, saved *app.SavedAnalysis) {
	choices := ui.dataset.choices()
	req, err := choices.Request(src)
	if err != nil {
		dialog.ShowError(err, ui.win)
		return
	}
	ui.dataset.source = src
	ui.status.busy(app.Progress{Stage: "Opening " + src.String()})
	ui.jobs.Start("load", func(ctx context.Context) {
		loaded, err := app.Load(ctx, ui.dataset.prepare, req, func(p app.Progress) {
			fyne.Do(func() { ui.status.busy(p) })
		}, func(names []string, thumbs []image.Image) {
			// Show the pictures while the data matrix and the PCA are made: that is the
			// longer part, and the window should show its sample within a second.
			fyne.Do(func() {
				ui.dataset.preview(src, names, thumbs)
				logMilestone("thumbnails shown")
			})
		}, saved)
		fyne.Do(func() {
			switch {
			case errors.Is(err, context.Canceled):
				ui.dataset.restore()
				if ui.dataset.prepared == nil {
					ui.status.idle("Loading cancelled; no data set is open")
				} else {
					ui.status.idle("Loading cancelled; the previous data set is kept")
				}
			case err != nil:
				ui.dataset.restore()
				ui.status.idle("Could not open " + src.String())
				if file, ok := src.SinglePicture(err); ok {
					ui.offerSegmentation(file, err)
					return
				}
				dialog.ShowError(err, ui.win)
			default:
				// Before the load options change: the results kept were read with the
				// previous ones.
				kept := ui.keepResults()
				prep := loaded.Prepared
				if src.Dir != "" {
					ui.rememberFolder(src.Dir)
				}
				ui.dataset.show(prep)
				ui.dataset.loaded = choices
				ui.datasetChanged(prep, loaded.Lambda2)
				ui.status.idle(keptText(kept) + fmt.Sprintf("Loaded %d images from %s in %.2f s", len(prep.Data.Names), src, prep.Times.Load+prep.Times.PCA))
				ui.logControls()
				logMilestone("data set loaded", "load_s", prep.Times.Load, "pca_s", prep.Times.PCA)
				if saved != nil {
					ui.restored(saved, loaded.Restored, loaded.RestoreErr)
				}
			}
		})
	})
}

// offerSegmentation answers a folder of one picture: features need two, but the
// Segmentation tab segments one, so the refusal offers to open the picture there.
func (ui *UI) offerSegmentation(file string, err error) {
	msg := err.Error() + ".\n\nFeatures are learned from two or more pictures; the Segmentation tab segments one.\nSegment " + filepath.Base(file) + "?"
	d := dialog.NewConfirm("One picture", msg, func(yes bool) {
		if yes {
			ui.tabs.SelectIndex(tabSegmentation)
			ui.segment.openFile(file)
		}
	}, ui.win)
	d.SetConfirmText("Segment it")
	d.SetDismissText("Close")
	d.Show()
	ui.dataset.oneImage = d
}
