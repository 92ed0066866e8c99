package views

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"

	"featurelab/app"
	"featurelab/assets"
)

// AppID is the application's unique ID (also in FyneApp.toml); preferences live under it.
const AppID = "io.github.featurelab"

// Title is the window title the smoke test looks for.
const Title = "Feature Lab"

// firstSize is the window's size when it opens: the smallest screen it has to fit
// (1024×700), so that Run and the status bar are on screen without a window manager
// to shrink it; a larger first size runs off such a screen. The window can be made
// larger.
var firstSize = fyne.NewSize(1024, 700)

// Run opens the window and blocks until it is closed. It opens on open: a saved analysis
// (a file ending in app.SavedExt), a folder, or the built-in sample when open is empty.
func Run(open string) {
	setUpLogging()
	a := fyneapp.NewWithID(AppID)
	probe := startLatencyProbe()
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon()))
	w := a.NewWindow(Title)
	ui := New(a, w, app.GoRunner)
	ui.status.probe = probe
	ui.status.animateAfter = time.Second
	w.SetContent(ui.Content())
	w.SetMainMenu(ui.mainMenu())
	w.Resize(firstSize)
	// The sample loads once the window is up: decoding it while the window is being
	// created slows both, and the pictures reach the screen later.
	a.Lifecycle().SetOnStarted(func() {
		logStarted()
		switch {
		case strings.HasSuffix(open, app.SavedExt):
			ui.OpenAnalysis(open)
			return
		case open != "":
			ui.LoadFolder(open)
			return
		}
		ui.LoadSample(app.DefaultSample)
	})
	w.ShowAndRun()
	// The results being kept are written before their folder goes.
	ui.cancelAll()
	ui.Wait()
	ui.recent.forget()
}

// UI is the window's state: the jobs it runs and the panels it shows.
type UI struct {
	fyneApp fyne.App
	win     fyne.Window
	jobs    *app.Manager
	session *app.Session // the open data set and each algorithm's latest result

	dataset  *datasetPanel
	run      *runPanel
	features *featuresView
	codes    *codesView
	diag     *diagnosticsView
	compare  *compareView
	segment  *segmentView
	coseg    *cosegmentView
	status   *statusBar
	tabs     *container.AppTabs
	content  fyne.CanvasObject

	// The shown result, and the folder coded with its features when that is shown
	// (nil: the images it learned on); set on the UI goroutine only.
	pres    *app.Presentation
	applied *app.AppliedFolder

	applyDialog *pathDialog // the last Apply analysis to folder dialog shown (tests drive it)
	// The results another data set replaced, reopened from File → Recent analyses.
	recent recentAnalyses
}

// New builds the window's content. run starts background jobs (app.GoRunner when nil;
// tests pass one they can wait on).
func New(a fyne.App, w fyne.Window, run app.Runner) *UI {
	ui := &UI{fyneApp: a, win: w, jobs: app.NewManager(run), session: app.NewSession()}
	ui.status = newStatusBar(func() { ui.cancelAll() })
	ui.dataset = newDatasetPanel(ui)
	ui.run = newRunPanel(ui)
	ui.features = newFeaturesView(ui)
	ui.codes = newCodesView(ui)
	ui.diag = newDiagnosticsView(ui)
	ui.compare = newCompareView(ui)
	ui.segment = newSegmentView(ui)
	ui.coseg = newCosegmentView(ui)
	ui.tabs = container.NewAppTabs(
		container.NewTabItem("Dataset", ui.dataset.object()),
		container.NewTabItem("Features", ui.features.object()),
		container.NewTabItem("Codes", ui.codes.object()),
		container.NewTabItem("Diagnostics", ui.diag.object()),
		container.NewTabItem("Compare", ui.compare.object()),
		container.NewTabItem("Segmentation", ui.segment.object()),
		container.NewTabItem("Co-segmentation", ui.coseg.object()),
	)
	side := container.NewPadded(ui.run.object())
	split := container.NewHSplit(side, ui.tabs)
	split.Offset = 0.24
	// The Segmentation and Co-segmentation tabs have forms of their own: beside them the
	// run panel's Run ran a feature learner and jumped to Features. There it gives way.
	ui.tabs.OnSelected = func(*container.TabItem) {
		if ui.tabHasItsOwnForm() {
			side.Hide()
		} else {
			side.Show()
		}
		split.Refresh()
	}
	ui.content = container.NewBorder(nil, ui.status.object(), nil, nil, split)
	ui.addShortcuts()
	w.SetOnDropped(ui.dropped)
	return ui
}

// Content is the window's root object.
func (ui *UI) Content() fyne.CanvasObject { return ui.content }

// Wait blocks until every background job started so far has finished (for tests).
func (ui *UI) Wait() { ui.jobs.Wait() }

// Tab indices.
const (
	tabDataset = iota
	tabFeatures
	tabCodes
	tabDiagnostics
	tabCompare
	tabSegmentation
	tabCosegmentation
)

// datasetChanged resets what depended on the previous data set: its results no longer
// apply to the images now shown.
func (ui *UI) datasetChanged(prep *app.Prepared, lambda2 float64) {
	ui.session.SetData(prep)
	ui.pres, ui.applied = nil, nil
	ui.features.clear()
	ui.codes.clear()
	ui.run.setProposal(lambda2)
	ui.diag.refresh()
	ui.compare.refresh()
	ui.segment.datasetChanged(prep)
	ui.coseg.datasetChanged()
}

// showAnalysis shows a finished run in the features and codes views. A run that finished
// after another data set was opened is not shown: its codes belong to other images.
func (ui *UI) showAnalysis(p *app.Presentation) bool {
	if !ui.session.Add(p) {
		return false
	}
	// A folder applied to the result shown before was coded with its features.
	ui.pres, ui.applied = p, nil
	ui.features.show(p)
	ui.codes.show(p)
	ui.diag.refresh()
	ui.compare.refresh()
	ui.tabs.SelectIndex(tabFeatures)
	return true
}

// tabHasItsOwnForm reports whether the tab shown runs from a form of its own, not the
// run panel's.
func (ui *UI) tabHasItsOwnForm() bool {
	i := ui.tabs.SelectedIndex()
	return i == tabSegmentation || i == tabCosegmentation
}

// runShownTab is Run (Ctrl+R, Ctrl+Enter, Analysis → Run) for the tab shown: Segment on
// the Segmentation tab, Co-segment on the Co-segmentation tab, else the run panel's
// learner.
func (ui *UI) runShownTab() {
	switch ui.tabs.SelectedIndex() {
	case tabSegmentation:
		ui.segment.start()
	case tabCosegmentation:
		ui.coseg.start()
	default:
		ui.run.start()
	}
}

// highlightFeature marks the images that own feature k and shows them.
func (ui *UI) highlightFeature(k int) {
	ui.tabs.SelectIndex(tabCodes) // first, so that the table has its size to scroll in
	ui.codes.markOwners(k)
}
