package views

import (
	"context"
	"errors"
	"fmt"
	"image"
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

const prefLastFolder = "lastFolder"

// datasetPanel opens folders and built-in samples and shows the images as thumbnails.
type datasetPanel struct {
	ui *UI

	open    *widget.Button
	samples *widget.Select
	info    *widget.Label
	skipped *widget.Label
	grid    *widget.GridWrap
	box     fyne.CanvasObject

	// Set on the UI goroutine only.
	prepared *app.Prepared
	thumbs   []image.Image
}

func newDatasetPanel(ui *UI) *datasetPanel {
	p := &datasetPanel{ui: ui}
	p.open = widget.NewButtonWithIcon("Open folder…", theme.FolderOpenIcon(), p.chooseFolder)
	p.samples = widget.NewSelect(assets.Names(), func(name string) {
		if name != "" {
			ui.LoadSample(name)
		}
	})
	p.samples.PlaceHolder = "Built-in samples"
	p.info = widget.NewLabel("No images yet")
	p.info.Truncation = fyne.TextTruncateEllipsis
	p.skipped = widget.NewLabel("")
	p.skipped.Wrapping = fyne.TextWrapWord
	p.skipped.Hide()
	p.grid = widget.NewGridWrap(
		func() int { return len(p.thumbs) },
		newThumbCell,
		func(id widget.GridWrapItemID, o fyne.CanvasObject) {
			if id < len(p.thumbs) && p.prepared != nil {
				setThumbCell(o, p.thumbs[id], p.prepared.Data.Names[id])
			}
		},
	)
	top := container.NewBorder(nil, nil, container.NewHBox(p.open, p.samples), nil, p.info)
	p.box = container.NewBorder(top, p.skipped, nil, nil, p.grid)
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

func (p *datasetPanel) chooseFolder() {
	d := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
		if err != nil {
			dialog.ShowError(err, p.ui.win)
			return
		}
		if uri == nil {
			return // cancelled
		}
		p.ui.LoadFolder(uri.Path())
	}, p.ui.win)
	if last := p.ui.app.Preferences().String(prefLastFolder); last != "" {
		if l, err := listableURI(last); err == nil {
			d.SetLocation(l)
		}
	}
	d.Show()
	d.Resize(fyne.NewSize(800, 560)) // before Show a FileDialog has no content to size

}

// show puts a freshly loaded data set on screen; call on the UI goroutine.
func (p *datasetPanel) show(prep *app.Prepared, thumbs []image.Image) {
	p.prepared, p.thumbs = prep, thumbs
	ds := prep.Data
	colour := "colour"
	if ds.Channels == 1 {
		colour = "grey"
	}
	p.info.SetText(fmt.Sprintf("%s — %d images, %d×%d %s, %d PCA components",
		prep.Source, len(ds.Names), ds.Width, ds.Height, colour, prep.PCA.D))
	if len(ds.Skipped) > 0 {
		lines := make([]string, 0, len(ds.Skipped)+1)
		lines = append(lines, fmt.Sprintf("Skipped %d files:", len(ds.Skipped)))
		for _, s := range ds.Skipped {
			lines = append(lines, s.Path+": "+s.Reason)
		}
		p.skipped.SetText(strings.Join(lines, "\n"))
		p.skipped.Show()
	} else {
		p.skipped.SetText("")
		p.skipped.Hide()
	}
	p.grid.Refresh()
	p.grid.ScrollToTop()
}

// LoadSample loads a built-in sample in the background.
func (ui *UI) LoadSample(name string) {
	ui.load(app.Source{Sample: name})
}

// LoadFolder loads a folder in the background and remembers it.
func (ui *UI) LoadFolder(dir string) {
	ui.app.Preferences().SetString(prefLastFolder, dir)
	ui.load(app.Source{Dir: dir})
}

func (ui *UI) load(src app.Source) {
	req := app.Request{Source: src, PCA: app.DefaultPCA}
	ui.status.busy(app.Progress{Stage: "Opening " + src.String()})
	ui.jobs.Start("load", func(ctx context.Context) {
		prep, err := app.Prepare(ctx, req, func(p app.Progress) {
			fyne.Do(func() { ui.status.busy(p) })
		})
		var thumbs []image.Image
		var lambda2 float64
		if err == nil {
			thumbs = app.Thumbnails(prep.Data, app.ThumbnailSize)
			lambda2 = prep.ProposeLambda2(app.DefaultTargetK)
		}
		fyne.Do(func() {
			switch {
			case errors.Is(err, context.Canceled):
				ui.status.idle("Loading cancelled; the previous data set is kept")
			case err != nil:
				ui.status.idle("Could not open " + src.String())
				dialog.ShowError(err, ui.win)
			default:
				ui.dataset.show(prep, thumbs)
				ui.datasetChanged(lambda2)
				ui.status.idle(fmt.Sprintf("Loaded %d images from %s in %.2f s", len(prep.Data.Names), src, prep.Times.Load+prep.Times.PCA))
			}
		})
	})
}
