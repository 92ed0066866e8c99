package views

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms/learn"
	"featurelab/app"
)

// runAlgorithms are the algorithms the window offers, in the order of SPEC §5.
var runAlgorithms = []string{"stepwise", "kfeatures", "bpmeans", "collapsed", "ibp", "kmeans", "dpmeans", "collapsed-dpmeans", "hardhdp"}

const prefAlgorithm = "algorithm"

// runPanel picks an algorithm, edits its parameters, and runs or cancels it.
type runPanel struct {
	ui *UI

	algo     string
	picker   *widget.Select
	params   paramSet
	byKey    map[string]*param
	form     *widget.Form
	message  *widget.Label
	lambda   *widget.Label
	help     *widget.Label // the whole hint of the field with the focus
	runBtn   *widget.Button
	stopBtn  *widget.Button
	proposed float64 // λ² proposed for the loaded data set
	// describe and divergence choose what a clustering learner reads of each image and,
	// for DP-means, its Bregman divergence; shown for those learners only (readAs).
	describe   *widget.Select
	divergence *widget.Select
	readAs     *fyne.Container
	running    bool // a run is in progress (UI goroutine only)
	box        fyne.CanvasObject
}

func newRunPanel(ui *UI) *runPanel {
	p := &runPanel{ui: ui, byKey: map[string]*param{}}
	feat := runAlgorithms
	p.params = paramSet{
		newParam("k", "K", "features or clusters; the number of features (K-features), of clusters (K-means), or the target K from which DP-means' (or the hard HDP's) λ² is proposed", "5", false, 1, "kfeatures", "kmeans", "dpmeans", "collapsed-dpmeans", "hardhdp"),
		newParam("lambda2", "λ²", "penalty per feature; the price of each feature (cluster, for DP-means) in the objective: a larger λ² gives fewer features. Stepwise, BP-means and collapsed BP-means with λ² empty choose K and λ² from their λ² path (the K that is best for the widest range of λ²); DP-means gets a λ² proposed from the data by the farthest-first heuristic. For the hard HDP, λ² is the price of a local cluster (a subfolder's images in one global cluster); a global cluster costs λ² times a subfolder's images over K", "", true, 0, "stepwise", "bpmeans", "collapsed", "dpmeans", "collapsed-dpmeans", "hardhdp"),
		newParam("restarts", "Restarts", "random restarts; the best objective wins", "100", false, 1, "stepwise", "kfeatures", "bpmeans", "collapsed", "kmeans", "dpmeans", "collapsed-dpmeans", "hardhdp"),
		newParam("sweeps", "Sweeps", "Gibbs sweeps", "1000", false, 1, "ibp"),
		newParam("chains", "Chains", "Gibbs chains; independent Gibbs chains, run in parallel; the best is shown", fmt.Sprint(app.DefaultIBPChains), false, 1, "ibp"),
		newParam("seed", "Seed", "same seed, same result; the same seed gives the same result, whatever the number of workers", "1", false, 0, feat...),
		newParam("workers", "Workers", "0 = all cores", "0", false, 0, feat...),
	}
	p.params[1].emptyOK = func() bool { return app.PathLambda2(p.algo) || p.ownLambda2() }
	for _, q := range p.params {
		p.byKey[q.key] = q
		q.entry.OnChanged = func(string) { p.validate() }
		q.onFocus(func(s string) { p.help.SetText(s) })
	}
	titles := make([]string, len(runAlgorithms))
	for i, a := range runAlgorithms {
		titles[i] = app.AlgorithmTitle(a)
	}
	p.form = widget.NewForm()
	p.message = widget.NewLabel("")
	p.message.Wrapping = fyne.TextWrapWord
	p.message.Importance = widget.DangerImportance
	p.lambda = widget.NewLabel("")
	p.lambda.Wrapping = fyne.TextWrapWord
	p.lambda.Importance = widget.LowImportance
	p.help = widget.NewLabel("")
	p.help.Wrapping = fyne.TextWrapWord
	p.help.Importance = widget.LowImportance
	p.runBtn = widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), p.start)
	p.runBtn.Importance = widget.HighImportance
	p.stopBtn = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() { ui.jobs.Cancel("run") })
	p.stopBtn.Disable()
	p.picker = widget.NewSelect(titles, func(title string) {
		if algo := algorithmOfTitle(title); algo != "" {
			p.selectAlgorithm(algo)
		}
	})
	heading := widget.NewLabelWithStyle("Algorithm", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.describe = widget.NewSelect(describeTitles, func(string) { p.representationChanged() })
	p.describe.SetSelectedIndex(0)
	p.divergence = widget.NewSelect(divergenceTitles, func(string) { p.representationChanged() })
	p.divergence.SetSelectedIndex(0)
	p.readAs = container.NewVBox(
		container.NewBorder(nil, nil, widget.NewLabel("Images as"), nil, p.describe),
		container.NewBorder(nil, nil, widget.NewLabel("Divergence"), nil, p.divergence))
	p.readAs.Hide()
	// Run and Cancel stay at the foot of the panel, where they are whatever the form's
	// length, and visible when the form scrolls.
	form := container.NewVScroll(container.NewVBox(heading, p.picker, p.readAs, p.form, p.help, p.lambda, p.message))
	p.box = container.NewBorder(nil, container.NewGridWithColumns(2, p.runBtn, p.stopBtn), nil, nil, form)
	algo := ui.app.Preferences().StringWithFallback(prefAlgorithm, "stepwise")
	if !slices.Contains(runAlgorithms, algo) {
		algo = "stepwise"
	}
	p.picker.SetSelected(app.AlgorithmTitle(algo))
	return p
}

func (p *runPanel) object() fyne.CanvasObject { return p.box }

// selectAlgorithm shows the chosen algorithm's parameters with the values last used.
func (p *runPanel) selectAlgorithm(algo string) {
	prefs := p.ui.app.Preferences()
	if p.algo != "" {
		p.params.save(prefs, p.algo, p.algo)
	}
	p.algo = algo
	prefs.SetString(prefAlgorithm, algo)
	p.form.Items = p.params.load(prefs, algo, algo)
	lambda := p.byKey["lambda2"]
	lambda.entry.SetPlaceHolder("")
	if app.PathLambda2(algo) {
		lambda.entry.SetPlaceHolder("auto") // from the λ² path, as the line under the form says
	} else if lambda.appliesTo(algo) && strings.TrimSpace(lambda.entry.Text) == "" && p.proposed > 0 {
		lambda.entry.SetText(strconv.FormatFloat(p.proposed, 'g', 4, 64))
	}
	p.showReadAs()
	p.form.Refresh()
	p.showProposal()
	p.validate()
}

// What the window offers for app.Description's Kind and DP-means' divergence, titles in
// the order of the kinds and names.
var (
	describeTitles   = []string{"PCA scores", "Colour histogram", "Visual words"}
	describeKinds    = []string{app.FeaturesPCA, app.FeaturesHistogram, app.FeaturesWords}
	divergenceTitles = []string{"Euclidean", "KL", "I-divergence"}
	divergenceNames  = []string{"euclidean", "kl", "idiv"}
)

// showReadAs shows the representation choice for the clustering learners, and the
// divergence for DP-means and the hard HDP, the ones with more than one.
func (p *runPanel) showReadAs() {
	if !app.IsClusteringAlgorithm(p.algo) {
		p.readAs.Hide()
		return
	}
	p.readAs.Show()
	if app.HasDivergence(p.algo) {
		p.divergence.Enable()
	} else {
		p.divergence.SetSelectedIndex(0)
		p.divergence.Disable()
	}
}

// description is the representation chosen, for a clustering learner; the PCA scores
// for the others.
func (p *runPanel) description() app.Description {
	i := p.describe.SelectedIndex()
	if !app.IsClusteringAlgorithm(p.algo) || i < 0 {
		return app.Description{}
	}
	return app.Description{Kind: describeKinds[i]}
}

// ownLambda2 reports whether the λ² proposed for the data set does not apply: it is
// measured on the PCA scores in squared distance, so with another representation or
// divergence DP-means proposes its own from the target K when λ² is left empty.
func (p *runPanel) ownLambda2() bool {
	return app.NeedsTargetK(p.algo) && (p.describe.SelectedIndex() > 0 || p.divergence.SelectedIndex() > 0)
}

// representationChanged empties λ² when the data set's proposal stops applying, and
// restores it when it applies again.
func (p *runPanel) representationChanged() {
	if p.form == nil || p.algo == "" {
		return // still being built
	}
	lambda := p.byKey["lambda2"]
	switch {
	case p.ownLambda2():
		lambda.entry.SetText("")
		lambda.entry.SetPlaceHolder("auto")
	case app.NeedsTargetK(p.algo) && strings.TrimSpace(lambda.entry.Text) == "" && p.proposed > 0:
		lambda.entry.SetPlaceHolder("")
		lambda.entry.SetText(strconv.FormatFloat(p.proposed, 'g', 4, 64))
	}
	p.showProposal()
	p.validate()
}

// setProposal records the λ² the farthest-first heuristic proposes for a new data set and
// fills it in, so the user sees it and can change it.
func (p *runPanel) setProposal(lambda2 float64) {
	p.proposed = lambda2
	if lambda2 > 0 && !app.PathLambda2(p.algo) && p.byKey["lambda2"].appliesTo(p.algo) {
		p.byKey["lambda2"].entry.SetText(strconv.FormatFloat(lambda2, 'g', 4, 64))
	}
	p.showProposal()
}

func (p *runPanel) showProposal() {
	if app.PathLambda2(p.algo) {
		p.lambda.SetText(fmt.Sprintf("Leave λ² empty and %s chooses K itself: the K that is best for the widest range of λ² on its λ² path.", app.AlgorithmTitle(p.algo)))
		p.lambda.Show()
		return
	}
	if p.ownLambda2() {
		p.lambda.SetText(fmt.Sprintf("Leave λ² empty and %s proposes it in what it reads (farthest-first heuristic for the target K).", app.AlgorithmTitle(p.algo)))
		p.lambda.Show()
		return
	}
	if p.proposed > 0 && p.byKey["lambda2"].appliesTo(p.algo) {
		p.lambda.SetText(fmt.Sprintf("λ² = %.4g was proposed from the data (farthest-first heuristic, target K = %d).", p.proposed, app.DefaultTargetK))
		p.lambda.Show()
		return
	}
	p.lambda.Hide()
}

// validate shows the first bad field's message next to the form and disables Run.
func (p *runPanel) validate() bool {
	if err := p.params.firstInvalid(p.algo); err != nil {
		p.message.SetText(err.Error())
		p.message.Show()
		p.runBtn.Disable()
		return false
	}
	p.message.SetText("")
	p.message.Hide()
	if !p.running {
		p.runBtn.Enable()
	}
	return true
}

// options reads the form into algorithm options.
func (p *runPanel) options() learn.Options {
	a := p.algo
	o := learn.Options{
		K:        p.byKey["k"].intFor(a),
		Lambda2:  p.byKey["lambda2"].floatFor(a),
		Restarts: p.byKey["restarts"].intFor(a),
		Sweeps:   p.byKey["sweeps"].intFor(a),
		Seed:     uint64(p.byKey["seed"].intFor(a)),
		Workers:  p.byKey["workers"].intFor(a),
	}
	if a == "ibp" {
		o.Restarts = p.byKey["chains"].intFor(a)
	}
	if app.NeedsTargetK(p.algo) && o.Lambda2 > 0 {
		o.K = 0 // an explicit λ² wins over the target K
	}
	if i := p.divergence.SelectedIndex(); app.HasDivergence(a) && i > 0 {
		o.Divergence = divergenceNames[i]
	}
	return o
}

// start runs the algorithm on the loaded data set in the background.
func (p *runPanel) start() {
	prep := p.ui.dataset.prepared
	if prep == nil {
		dialog.ShowInformation("No data", "Open a folder or a built-in sample first.", p.ui.win)
		return
	}
	if !p.validate() {
		return
	}
	if p.ui.jobs.Running("load") {
		p.ui.status.idle("A data set is still loading; press Run when it is in")
		return
	}
	p.params.save(p.ui.app.Preferences(), p.algo, p.algo)
	algo, opt, desc := p.algo, p.options(), p.description()
	if err := app.ValidateOptions(algo, opt); err != nil {
		p.message.SetText(err.Error())
		p.message.Show()
		return
	}
	p.running = true
	p.runBtn.Disable()
	p.stopBtn.Enable()
	p.ui.status.busy(app.Progress{Stage: app.AlgorithmTitle(algo) + ": starting"})
	p.ui.jobs.Start("run", func(ctx context.Context) {
		a, err := prep.RunOn(ctx, algo, desc, opt, func(pr app.Progress) {
			fyne.Do(func() { p.ui.status.busy(pr) })
		})
		var pres *app.Presentation
		if err == nil {
			pres = a.Present()
		}
		fyne.Do(func() {
			p.ui.status.workDone()
			p.running = false
			p.stopBtn.Disable()
			p.validate()
			switch {
			case errors.Is(err, context.Canceled):
				p.ui.status.idle("Run cancelled; the previous result is kept")
			case err != nil:
				p.ui.status.idle(app.AlgorithmTitle(algo) + " failed")
				dialog.ShowError(err, p.ui.win)
			case !p.ui.showAnalysis(pres):
				p.ui.status.idle(app.AlgorithmTitle(algo) + " finished on the previous data set; its result was set aside")
			default:
				msg := fmt.Sprintf("%s: K = %d, %s, in %.2f s", app.AlgorithmTitle(algo), a.Result.K, a.ObjectiveText(), a.Times.Algorithm)
				if fs, ok := a.FolderScores(); ok {
					msg += "; " + fs.String()
				}
				p.ui.status.idle(msg)
			}
		})
	})
}

// algorithmOfTitle is the algorithm a picker shows as title, or "" for none.
func algorithmOfTitle(title string) string {
	for _, a := range runAlgorithms {
		if app.AlgorithmTitle(a) == title {
			return a
		}
	}
	return ""
}
