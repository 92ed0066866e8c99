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

	"featurelab/algorithms"
	"featurelab/app"
)

const prefAlgorithm = "algorithm"

// runPanel picks an algorithm, edits its parameters, and runs or cancels it.
type runPanel struct {
	ui *UI

	algo     string                // the learner shown, by name (its preferences' key)
	alg      *algorithms.Algorithm // the learner shown
	picker   *escSelect
	params   *paramSet
	byKey    map[string]*param
	form     *widget.Form
	more     *moreOptions // the advanced fields (workers)
	message  *widget.Label
	lambda   *widget.Label
	help     *widget.Label // the whole hint of the field with the focus
	runBtn   *widget.Button
	proposed float64 // λ² proposed for the loaded data set
	// describe chooses what a clustering learner reads of each image; shown for those
	// learners only (readAs).
	describe *escSelect
	readAs   *fyne.Container
	running  bool // a run is in progress (UI goroutine only)
	box      fyne.CanvasObject
}

func newRunPanel(ui *UI) *runPanel {
	p := &runPanel{ui: ui}
	var families []family
	for _, a := range algorithms.Learners() {
		families = append(families, family{a.Name, a.Params.Fields()})
	}
	p.help = widget.NewLabel("")
	p.params = newParamSet(families, p.changed, p.help.SetText)
	p.byKey = p.params.byKey
	p.more = newMoreOptions()
	var titles []string
	for _, a := range algorithms.Learners() {
		titles = append(titles, a.Title)
	}
	p.form = widget.NewForm()
	p.message = widget.NewLabel("")
	p.message.Wrapping = fyne.TextWrapWord
	p.message.Importance = widget.DangerImportance
	p.lambda = widget.NewLabel("")
	p.lambda.Wrapping = fyne.TextWrapWord
	p.lambda.Importance = widget.LowImportance
	p.help.Wrapping = fyne.TextWrapWord
	p.help.Importance = widget.LowImportance
	p.runBtn = widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), p.start)
	p.runBtn.Importance = widget.HighImportance
	p.picker = newSelect(titles, func(title string) {
		if a := learnerOfTitle(title); a != nil {
			algo := a.Name
			p.selectAlgorithm(algo)
		}
	})
	heading := widget.NewLabelWithStyle("Algorithm", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.describe = newSelect(describeTitles, func(string) { p.representationChanged() })
	p.describe.SetSelectedIndex(0)
	p.readAs = container.NewVBox(container.NewBorder(nil, nil, widget.NewLabel("Images as"), nil, p.describe))
	p.readAs.Hide()
	// Run stays at the foot of the panel, where it is whatever the form's length, and
	// visible when the form scrolls. A run's Cancel is the status bar's, beside its
	// progress: one Cancel for the job, not one here and one there.
	form := container.NewVScroll(container.NewVBox(heading, p.picker, p.readAs, p.form, p.more.accordion, p.help, p.lambda, p.message))
	p.box = container.NewBorder(nil, p.runBtn, nil, nil, form)
	algo := ui.fyneApp.Preferences().StringWithFallback(prefAlgorithm, algorithms.Names()[0])
	if !slices.Contains(algorithms.Names(), algo) {
		algo = algorithms.Names()[0]
	}
	p.picker.SetSelected(algorithms.Title(algo))
	return p
}

func (p *runPanel) object() fyne.CanvasObject { return p.box }

// selectAlgorithm shows the chosen algorithm's parameters with the values last used.
func (p *runPanel) selectAlgorithm(algo string) {
	prefs := p.ui.fyneApp.Preferences()
	if p.algo != "" {
		p.params.save(prefs, p.algo, p.algo)
	}
	p.algo = algo
	p.alg, _ = algorithms.Lookup(algo) // the picker offers the registry's learners only
	prefs.SetString(prefAlgorithm, algo)
	// The whole help of a field focused under the previous algorithm is that one's: K-means'
	// "K: the number of clusters it fits" stayed under stepwise, which has no K.
	p.help.SetText("")
	var more []*widget.FormItem
	p.form.Items, more = p.params.show(prefs, algo, algo)
	p.more.set(more)
	lambda := p.byKey["lambda2"]
	if !p.alg.ChoosesLambda2() && lambda.appliesTo(algo) && strings.TrimSpace(lambda.entry.Text) == "" && p.proposed > 0 {
		lambda.entry.SetText(strconv.FormatFloat(p.proposed, 'g', 4, 64))
	}
	p.showReadAs()
	p.form.Refresh()
	p.showProposal()
	p.validate()
}

// What the window offers for app.Description's Kind, titles in the order of the kinds.
var (
	describeTitles = []string{"PCA scores", "Colour histogram", "Visual words"}
	describeKinds  = []string{app.FeaturesPCA, app.FeaturesHistogram, app.FeaturesWords}
)

// showReadAs shows the representation choice for the clustering learners.
func (p *runPanel) showReadAs() {
	if !p.alg.Clusters() {
		p.readAs.Hide()
		return
	}
	p.readAs.Show()
}

// changed is called when a field's value changes: a new divergence may stop the data
// set's proposed λ² applying.
func (p *runPanel) changed() {
	if p.form == nil || p.algo == "" {
		return // still being built
	}
	if p.byKey["divergence"].appliesTo(p.algo) {
		p.representationChanged()
		return
	}
	p.validate()
}

// description is the representation chosen, for a clustering learner; the PCA scores
// for the others.
func (p *runPanel) description() app.Description {
	i := p.describe.SelectedIndex()
	if !p.alg.Clusters() || i < 0 {
		return app.Description{}
	}
	return app.Description{Kind: describeKinds[i]}
}

// ownLambda2 reports whether the λ² proposed for the data set does not apply: it is
// measured on the PCA scores in squared distance, so with another representation or
// divergence DP-means proposes its own from the target K when λ² is left empty.
func (p *runPanel) ownLambda2() bool {
	div := p.byKey["divergence"]
	otherDivergence := div.appliesTo(p.algo) && div.text() != "" && div.text() != div.choice.Options[0]
	return p.alg.ProposesLambda2() && (p.describe.SelectedIndex() > 0 || otherDivergence)
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
		if lambda.entry.Text != "" {
			lambda.entry.SetText("")
		}
	case p.alg.ProposesLambda2() && strings.TrimSpace(lambda.entry.Text) == "" && p.proposed > 0:
		lambda.entry.SetText(strconv.FormatFloat(p.proposed, 'g', 4, 64))
	}
	p.showProposal()
	p.validate()
}

// setProposal records the λ² the farthest-first heuristic proposes for a new data set and
// fills it in, so the user sees it and can change it.
func (p *runPanel) setProposal(lambda2 float64) {
	p.proposed = lambda2
	if lambda2 > 0 && !p.alg.ChoosesLambda2() && p.byKey["lambda2"].appliesTo(p.algo) {
		p.byKey["lambda2"].entry.SetText(strconv.FormatFloat(lambda2, 'g', 4, 64))
	}
	p.showProposal()
}

func (p *runPanel) showProposal() {
	if p.alg.StepsK() {
		p.lambda.SetText(fmt.Sprintf("Leave λ² empty and %s chooses K from its λ² path: by default it counts the things that come and go, the largest K whose features each show one object, on or off (K from, under More options, also offers the widest λ² interval).", p.alg.Title))
		p.lambda.Show()
		return
	}
	if p.alg.ChoosesLambda2() {
		p.lambda.SetText(fmt.Sprintf("Leave λ² empty and %s chooses K itself: the K that is best for the widest range of λ² on its λ² path.", p.alg.Title))
		p.lambda.Show()
		return
	}
	if p.ownLambda2() {
		p.lambda.SetText(fmt.Sprintf("Leave λ² empty and %s proposes it in what it reads (farthest-first heuristic for the target K).", p.alg.Title))
		p.lambda.Show()
		return
	}
	if p.proposed > 0 && p.byKey["lambda2"].appliesTo(p.algo) {
		p.lambda.SetText(fmt.Sprintf("λ² = %.4g was proposed from the data (farthest-first heuristic, target K = %d).", p.proposed, algorithms.DefaultTargetK))
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

// options reads the form into algorithm options, through the registry's parser: the
// fields the algorithm does not take keep their defaults.
func (p *runPanel) options() (app.RunOptions, error) {
	a := p.alg
	if a == nil {
		return app.RunOptions{}, fmt.Errorf("no learner called %q", p.algo)
	}
	o, err := a.Params.Parse(p.params.texts(p.algo))
	if err != nil {
		return o, err
	}
	if a.ProposesLambda2() && o.Lambda2 > 0 {
		o.K = 0 // an explicit λ² wins over the target K
	}
	return o, nil
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
	p.params.save(p.ui.fyneApp.Preferences(), p.algo, p.algo)
	alg, desc := p.alg, p.description()
	opt, err := p.options()
	if err != nil {
		p.message.SetText(err.Error())
		p.message.Show()
		return
	}
	p.running = true
	p.runBtn.Disable()
	// A widget with the focus keeps the keys: after choosing the algorithm in its
	// dropdown, Esc went to the dropdown and the run went on.
	p.ui.win.Canvas().Unfocus()
	p.ui.status.busy(app.Progress{Stage: alg.Title + ": starting"})
	p.ui.jobs.Start("run", func(ctx context.Context) {
		pres, err := app.Run(ctx, prep, alg, desc, opt, func(pr app.Progress) {
			fyne.Do(func() { p.ui.status.busy(pr) })
		})
		var summary string
		if err == nil {
			summary = app.RunSummary(pres.Analysis) // folder scores are numerics: here, not on the UI goroutine
		}
		fyne.Do(func() {
			p.ui.status.workDone()
			p.running = false
			p.validate()
			switch {
			case errors.Is(err, context.Canceled):
				p.ui.status.idle(cancelledText("Run", p.ui.pres != nil))
			case err != nil:
				p.ui.status.idle(alg.Title + " failed")
				dialog.ShowError(err, p.ui.win)
			case !p.ui.showAnalysis(pres):
				p.ui.status.idle(alg.Title + " finished on the previous data set; its result was set aside")
			default:
				p.ui.status.idle(summary)
			}
		})
	})
}

// learnerOfTitle is the learner a picker shows as title, or nil for none.
func learnerOfTitle(title string) *algorithms.Algorithm {
	for _, a := range algorithms.Learners() {
		if a.Title == title {
			return a
		}
	}
	return nil
}
