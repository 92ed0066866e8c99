package views

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"

	"featurelab/app"
)

// prefApplyFolder remembers the folder an analysis was last applied to.
const prefApplyFolder = "lastApplyFolder"

// applyKey is the job kind of File → Apply analysis to folder….
const applyKey = "apply"

// nothingToApply is the status line when no analysis is shown.
const nothingToApply = "Nothing to apply: run an algorithm or open a saved analysis first"

// chooseApplyFolder asks for a folder of new images to code with the shown analysis's
// features (File → Apply analysis to folder…), in the path dialog Open folder uses.
func (ui *UI) chooseApplyFolder() {
	if ui.pres == nil {
		ui.status.idle(nothingToApply)
		return
	}
	prefs := ui.fyneApp.Preferences()
	start := prefs.StringWithFallback(prefApplyFolder, prefs.String(prefLastFolder))
	ui.applyDialog = showPathDialog(ui.win, pathAsk{
		title:       "Apply analysis to folder",
		prompt:      "Type or paste the path of a folder of new images to code with the features shown (its subfolders are read too):",
		placeholder: "/path/to/new/images or ~/Pictures",
		start:       start,
		resolve:     folderPath,
		open:        ui.ApplyToFolder,
		browse:      func(typed string) { ui.browseFolderThen(typed, start, ui.ApplyToFolder) },
	})
}

// ApplyToFolder codes the images of dir with the shown analysis's features in the
// background: they are loaded as the analysis's were (its working size and colour) and
// shown in the Codes tab, the unexplained first, and counted under the features. What
// cannot be applied (no images, cancelled, a learner that read no PCA scores) is one
// status line, and what is shown stays.
func (ui *UI) ApplyToFolder(dir string) {
	if ui.pres == nil {
		ui.status.idle(nothingToApply)
		return
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	ui.fyneApp.Preferences().SetString(prefApplyFolder, dir)
	a := ui.pres.Analysis
	ui.status.busy(app.Progress{Stage: "Applying the analysis to " + dir})
	ui.jobs.Start(applyKey, func(ctx context.Context) {
		f, err := app.Apply(ctx, a, dir, func(p app.Progress) { fyne.Do(func() { ui.status.busy(p) }) })
		fyne.Do(func() {
			ui.status.workDone()
			switch {
			case errors.Is(err, context.Canceled):
				ui.status.idle("Applying the analysis cancelled; what was shown is kept")
			case err != nil:
				ui.status.idle("Could not apply the analysis to " + dir + ": " + oneLine(err))
			case ui.pres == nil || ui.pres.Analysis != a:
				ui.status.idle("Another result is shown now; the folder coded with the previous one was set aside")
			default:
				ui.showApplied(f)
				ui.status.idle(fmt.Sprintf("%s in %.2f s (loading %.2f s)", f.Summary(),
					f.Applied.LoadSecs+f.Applied.EncodeSecs, f.Applied.LoadSecs))
			}
		})
	})
}

// oneLine is err's text on one line, without the package prefix a user has no use for.
func oneLine(err error) string {
	msg := strings.TrimPrefix(err.Error(), "encoding: ")
	return strings.Join(strings.Fields(msg), " ")
}

// showApplied shows a folder coded with the shown analysis: its images in the Codes tab
// and their counts under the features.
func (ui *UI) showApplied(f *app.AppliedFolder) {
	ui.applied = f
	ui.features.showApplied(ui.pres, f)
	ui.codes.showApplied(f)
	ui.tabs.SelectIndex(tabCodes)
}

// showTraining goes back from an applied folder to the images the analysis learned on.
func (ui *UI) showTraining() {
	if ui.applied == nil || ui.pres == nil {
		return
	}
	ui.applied = nil
	ui.features.show(ui.pres)
	ui.codes.show(ui.pres)
	ui.status.idle("Showing the images the features were learned on")
}
