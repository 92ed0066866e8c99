package views

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// What each figure the window shows is, in one line each, and which way is better. A
// figure shown without it ("objective 98.999", "λ² = 1.059", "PRI 0.79") tells a newcomer
// nothing; each view puts an info mark (ⓘ) beside the line that shows figures, listing the
// lines of the figures on it.
const (
	explainObjective   = "objective: the squared error left between the images and what their codes rebuild (in PCA units); lower fits better, though more features always lower it"
	explainPenalised   = "with λ² per feature: the objective plus λ² for each feature or cluster, what the λ² learners minimise; lower is better"
	explainLambda2     = "λ²: the price of one feature or cluster: one is kept only when it lowers the objective by more than λ², so a larger λ² gives fewer"
	explainPath        = "λ² path: which K is best at each price λ²; a K best over a wide range of λ² is a clear choice"
	explainNMI         = "NMI: normalised mutual information between the groups by code and the subfolders; 0 = unrelated, 1 = the same groups; higher is better"
	explainARI         = "ARI: adjusted Rand index between the groups by code and the subfolders; 0 = as by chance, 1 = the same groups; higher is better"
	explainExplained   = "explains n %: the share of the images' variation the feature accounts for; a larger share matters more"
	explainStable      = "stable n %: how many of the fits on half the images found the feature again; higher is more trustworthy"
	explainOnOff       = "on/off or gradual: on/off when its images split cleanly into those with it and those without (an object); gradual when they do not (lighting, a shift)"
	explainOwners      = "n images: how many images own the feature (its digit is 1 in their code)"
	explainCode        = "code: one digit per feature, 1 when the image has it; the distinct codes are the different combinations found"
	explainResidual    = "residual: the squared error left for the image by its code; lower is better explained, a high one is an odd image out"
	explainNewResidual = "residual: the mean squared difference per pixel value between a new image and its code's picture; above the limit (the training images' 99th percentile) the features do not explain the image, and it is marked “!”"
	explainRand        = "Rand index: the share of pairs of images both results put together or apart alike; 1 = the same groups, higher is more alike"
	explainJaccard     = "Jaccard (in brackets): the owners two features share over the owners of either; 1 = the same images, 0 = none in common"
	explainSeconds     = "s: the seconds the learner took"
	explainPCA         = "PCA components: each image is read as this many numbers, its coordinates along the directions the images vary most; more keeps finer detail and takes longer"
	explainVariance    = "explained variance: the share of the images' variation the first n principal components keep; the curve flattening says more components add little"
	explainCurve       = "objective vs K: the objective of the best fit at each K; where it stops falling steeply, more features explain little"
	explainRestarts    = "objective over restarts: each random restart's objective, lowest first; many at the lowest say the best was found"
	explainTraceK      = "IBP K per sweep: the number of features of each Gibbs sample; settling to a level says the sampler has converged"
	explainTraceHyp    = "α, σ_X, σ_A per sweep: how many features the sampler expects, the noise and the features' spread, sample by sample; flat is settled"
	explainLogJoint    = "log joint per sweep: how probable each sample is under the model; higher is better, and a flat trace is settled"
	explainKHist       = "histogram of K: how often each K was sampled over the second half of the sweeps; one tall bar is a clear K"
	explainExposure    = "exposure: how bright each picture was taken against the folder's typical picture (1.05 = 5 % brighter), divided out before the PCA so that no feature is spent on it; Exposure none keeps the pictures as taken"
	explainSegments    = "segments: the regions the picture was split into; iterations: the passes of the fit"
	explainPRI         = "PRI: probabilistic Rand index against the human segmentations, the share of pixel pairs grouped alike; 0 to 1, higher is better"
	explainVoI         = "VoI: variation of information against the human segmentations, what is lost and gained between the two; 0 = the same, lower is better"
	explainBound       = "bound: the fit's lower bound on the log likelihood after each iteration; it rises and levels off when the fit has converged"
	explainCoseg       = "objective: how far the cells are from their global clusters' colours, plus the segment and cluster prices paid; lower is better at the same prices"
	explainPrices      = "segment price, cluster price: what one segment in an image, and one global cluster shared by the images, cost; higher prices give fewer of them"
	explainShare       = "n images · n %: how many images use the cluster, and its share of all the pixels"
)

// infoMark is the ⓘ beside a line of figures: tapped, it shows what each figure is, one
// line each, in a tip over the window that a tap elsewhere or Esc closes.
type infoMark struct {
	widget.Button
	lines []string
	tip   *widget.PopUp // the tip shown, nil when none
}

func newInfoMark(lines ...string) *infoMark {
	m := &infoMark{}
	m.Icon, m.Importance = theme.InfoIcon(), widget.LowImportance
	m.OnTapped = m.show
	m.ExtendBaseWidget(m)
	m.set(lines...)
	return m
}

// TypedKey is the button's, but for Esc, which goes to the window (escapeToWindow).
func (m *infoMark) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToWindow(m, ev) {
		m.Button.TypedKey(ev)
	}
}

// set is the lines the mark explains; with none it is hidden.
func (m *infoMark) set(lines ...string) {
	m.lines = lines
	if len(lines) == 0 {
		m.Hide()
	} else {
		m.Show()
	}
}

// text is what the tip says.
func (m *infoMark) text() string { return strings.Join(m.lines, "\n") }

// tipWidth is the widest a tip gets: it wraps inside it, and inside the window.
const tipWidth = 460

// show shows the tip below the mark.
func (m *infoMark) show() {
	c := fyne.CurrentApp().Driver().CanvasForObject(m)
	if c == nil || len(m.lines) == 0 {
		return
	}
	label := widget.NewLabel(m.text())
	label.Wrapping = fyne.TextWrapWord
	w := min(tipWidth, c.Size().Width-2*theme.Padding())
	label.Resize(fyne.NewSize(w, 1))
	m.tip = widget.NewPopUp(label, c)
	m.tip.Resize(fyne.NewSize(w, label.MinSize().Height))
	// Below the mark, kept inside the window.
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(m).Add(fyne.NewPos(0, m.Size().Height))
	pos.X = max(0, min(pos.X, c.Size().Width-m.tip.Size().Width))
	pos.Y = max(0, min(pos.Y, c.Size().Height-m.tip.Size().Height))
	m.tip.ShowAtPosition(pos)
}

// withInfo is o with the mark at its trailing edge, at the top.
func withInfo(o fyne.CanvasObject, m *infoMark) fyne.CanvasObject {
	return container.NewBorder(nil, nil, nil, container.NewVBox(m), o)
}
