package views

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"featurelab/app"
)

// chooseSaveAnalysis asks where to save the shown analysis (File → Save analysis…).
func (ui *UI) chooseSaveAnalysis() {
	var name string
	if ui.pres != nil {
		name = savedName(ui.pres.Analysis)
	}
	ui.askSavePath("Nothing to save", name, app.SavedExt, func(path string) {
		if !strings.HasSuffix(path, app.SavedExt) {
			path += app.SavedExt
		}
		ui.SaveAnalysis(path)
	})
}

// savedName is a saved analysis' default file name: the folder's (or sample's) name and
// the algorithm, "faces-stepwise.featurelab".
func savedName(a *app.Analysis) string {
	base := a.Source.Sample
	if a.Source.Dir != "" {
		base = filepath.Base(a.Source.Dir)
	}
	return fmt.Sprintf("%s-%s%s", base, a.Algorithm.Name, app.SavedExt)
}

// SaveAnalysis writes the shown analysis, with the load options its data set was read
// with, to path in the background.
func (ui *UI) SaveAnalysis(path string) {
	if ui.pres == nil {
		return
	}
	a, load := ui.pres.Analysis, ui.dataset.loaded
	ui.saveInBackground(func() error { return app.SaveAnalysis(a, path, load) }, "Saved the analysis to "+path, "Saving the analysis failed")
	ui.fyneApp.Preferences().SetString(prefExportFolder, filepath.Dir(path))
}

// chooseOpenAnalysis asks for a saved analysis to open (File → Open analysis…).
func (ui *UI) chooseOpenAnalysis() {
	ui.askOpenPath([]string{app.SavedExt}, ui.exportFolder(), ui.OpenAnalysis)
}

// askOpenPath shows Fyne's file chooser, limited to the extensions exts (nil: any file)
// and starting in the folder start ("": Fyne's choice), and hands the path chosen to
// open.
func (ui *UI) askOpenPath(exts []string, start string, open func(path string)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			dialog.ShowError(err, ui.win)
			return
		}
		if r == nil {
			return // cancelled
		}
		path := r.URI().Path()
		r.Close()
		open(path)
	}, ui.win)
	if exts != nil {
		d.SetFilter(storage.NewExtensionFileFilter(exts))
	}
	if l, err := listableURI(start); start != "" && err == nil {
		d.SetLocation(l)
	}
	d.Show()
	d.Resize(fyne.NewSize(800, 560)) // before Show a FileDialog has no content to size
}

// OpenAnalysis opens a saved analysis: its load options and parameters are set, its
// folder loaded, and its result shown without running again. When the folder has
// changed since, the data set is loaded and the parameters set, and a dialog says what
// changed: Run computes it anew.
func (ui *UI) OpenAnalysis(path string) { ui.openAnalysis(path, nil) }

// openAnalysis is OpenAnalysis; read, when set, is told the analysis read from path
// before its folder loads.
func (ui *UI) openAnalysis(path string, read func(*app.SavedAnalysis)) {
	// Reading and checking the file is in the background: one of 100 000 images holds
	// megabytes of codes to decode.
	ui.jobs.Start("open-analysis", func(context.Context) {
		s, err := app.OpenSaved(path)
		fyne.Do(func() {
			if err != nil {
				dialog.ShowError(err, ui.win)
				return
			}
			if read != nil {
				read(s)
			}
			ui.dataset.setChoices(s.Load)
			ui.run.applySaved(s)
			if s.Source.Dir != "" {
				ui.LoadFolderThen(s.Source.Dir, s)
				return
			}
			ui.loadThen(s.Source, s)
		})
	})
}

// restored finishes opening a saved analysis once its data set is loaded: on the UI
// goroutine, with the analysis restored (and presented) in the background, or why not.
func (ui *UI) restored(s *app.SavedAnalysis, pres *app.Presentation, err error) {
	ui.run.applySaved(s) // the new data set's proposed λ² replaced the saved one
	switch {
	case errors.Is(err, app.ErrFolderChanged):
		ui.status.idle("The folder changed since the analysis was saved; its parameters are set")
		dialog.ShowInformation("The folder changed", err.Error()+".\nIts load options and parameters are set: press Run to compute it on the folder as it is.", ui.win)
	case err != nil:
		ui.status.idle("Could not restore the analysis")
		dialog.ShowError(err, ui.win)
	case !ui.showAnalysis(pres):
		ui.status.idle("A newer data set was opened; the saved analysis was set aside")
	default:
		ui.recent.shownAgain(s, pres)
		ui.status.idle(fmt.Sprintf("Opened the saved %s analysis of %s: K = %d", s.Algorithm.Title, s.Source, s.Result.K))
	}
}

// setChoices sets the loading options' fields.
func (p *datasetPanel) setChoices(c app.LoadChoices) {
	p.colour.SetSelected(c.Colour)
	p.size.SetText(c.Size)
	p.pca.SetText(c.PCA)
	// A file saved before exposure was handled kept its pictures as taken.
	p.exposure.SetSelected(cmp.Or(c.Exposure, app.ExposureNone))
}

// applySaved selects a saved analysis' algorithm and sets its fields to the options the
// run used, each written by the registry as the user would type it.
func (p *runPanel) applySaved(s *app.SavedAnalysis) {
	a := s.Algorithm
	p.picker.SetSelected(a.Title)
	// Before the fields: a change of representation empties λ², which the saved λ² then
	// fills again.
	p.describe.SetSelectedIndex(max(slices.Index(describeKinds, s.Describe.Kind), 0))
	o := s.Options
	if o.Lambda2 == 0 && !a.ChoosesLambda2() {
		o.Lambda2 = s.Result.Lambda2 // the λ² the run proposed itself
	}
	if o.Chains == 0 {
		o.Chains = o.Restarts // analyses saved before chains had a field of their own
	}
	if a.Sampler() && o.AlphaPrior == "" {
		o.AlphaPrior = app.AlphaGamma // saved before the tie: the papers' prior ran
	}
	for _, q := range a.Params {
		// A zero the learner read as its default (K, restarts, the divergence) is shown
		// as that default.
		text, scratch := q.Text(&o), app.RunOptions{}
		if q.Set(&scratch, text) != nil {
			text = q.Default
		}
		p.byKey[q.Key].setText(text)
	}
	p.validate()
}
