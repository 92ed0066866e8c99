package views

import (
	"cmp"
	"fmt"
	"image"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms"
	"featurelab/app"
)

// compareView puts two results on the open data set side by side — e.g. stepwise
// K-features against K-means — with how alike their codes are and which feature of one
// matches which of the other.
type compareView struct {
	ui          *UI
	left, right *compareSide
	summary     *widget.Label
	info        *infoMark // what the figures of the summary and the sides are
	box         fyne.CanvasObject
	syncing     bool                  // the pickers are being set from the session, not by the user
	shownNewest *algorithms.Algorithm // the newest result when the sides were last chosen
}

// compareSide is one column: an algorithm picker, its result's figures and its features.
type compareSide struct {
	picker *escSelect
	figure *widget.Label
	cards  *fyne.Container
	alg    *algorithms.Algorithm // the learner shown, nil for none
	box    fyne.CanvasObject
	win    fyne.Window // where a tapped feature opens enlarged
}

const compareCell = 110

func newCompareView(ui *UI) *compareView {
	v := &compareView{ui: ui}
	v.left, v.right = v.newSide(), v.newSide()
	v.summary = widget.NewLabel(compareHint)
	v.summary.Wrapping = fyne.TextWrapWord
	v.info = newInfoMark()
	split := container.NewHSplit(v.left.box, v.right.box)
	v.box = container.NewBorder(withInfo(v.summary, v.info), nil, nil, nil, split)
	return v
}

const compareHint = "Run two algorithms on the same data set to compare them here."

func (v *compareView) newSide() *compareSide {
	s := &compareSide{win: v.ui.win}
	s.picker = newSelect(nil, func(title string) {
		if v.syncing {
			return
		}
		s.alg = learnerOfTitle(title)
		v.show()
	})
	s.picker.PlaceHolder = "Choose a result"
	s.figure = widget.NewLabel("")
	s.figure.Wrapping = fyne.TextWrapWord
	s.cards = container.New(layout.NewGridWrapLayout(fyne.NewSize(compareCell+8, compareCell*3/4+96)))
	s.box = container.NewBorder(container.NewVBox(s.picker, s.figure), nil, nil, nil, container.NewVScroll(s.cards))
	return s
}

func (v *compareView) object() fyne.CanvasObject { return v.box }

// refresh offers the results the session holds; call it when a result arrives or the
// data set changes.
func (v *compareView) refresh() {
	algos := v.ui.session.Algorithms()
	titles := make([]string, len(algos))
	for i, a := range algos {
		titles[i] = a.Title
	}
	for _, s := range []*compareSide{v.left, v.right} {
		s.picker.Options = titles
		s.picker.Refresh()
		if v.ui.session.Result(s.alg) == nil {
			s.alg = nil
		}
	}
	// The newest result goes on the right; the left keeps the user's choice, or takes
	// the most recent other result.
	if n := len(algos); n > 0 {
		if newest := algos[n-1]; newest != v.shownNewest {
			v.shownNewest = newest
			v.right.alg = newest
		}
		if v.left.alg == nil || v.left.alg == v.right.alg {
			v.left.alg = nil
			for i := n - 1; i >= 0; i-- {
				if algos[i] != v.right.alg {
					v.left.alg = algos[i]
					break
				}
			}
		}
	} else {
		v.shownNewest = nil
	}
	v.show()
}

// show lays out both sides and, when both hold a result, their comparison.
func (v *compareView) show() {
	v.syncing = true
	for _, s := range []*compareSide{v.left, v.right} {
		if s.alg == nil {
			s.picker.ClearSelected()
		} else {
			s.picker.SetSelected(s.alg.Title)
		}
		s.show(v.ui.session.Result(s.alg))
	}
	v.syncing = false
	l, r := v.ui.session.Result(v.left.alg), v.ui.session.Result(v.right.alg)
	if l == nil || r == nil {
		v.summary.SetText(compareHint)
		v.info.set()
		return
	}
	figures := []string{explainRand, explainJaccard, explainObjective}
	if v.left.alg.Uses("lambda2") || v.right.alg.Uses("lambda2") {
		figures = append(figures, explainPenalised, explainLambda2)
	}
	v.info.set(append(figures, explainCode, explainSeconds)...)
	c := app.Compare(l.Analysis, r.Analysis)
	leftLabels, rightLabels := featureTitles(l), featureTitles(r)
	lines := []string{fmt.Sprintf("%s vs %s: Rand index of the groupings of the images by code %.3f (1 = the same groups).",
		v.left.alg.Title, v.right.alg.Title, c.RandIndex)}
	if pairs := closestPairs(c.Matches, leftLabels, rightLabels); pairs != "" {
		lines = append(lines, "Closest features by shared owners (Jaccard): "+pairs)
	}
	v.summary.SetText(strings.Join(lines, "\n"))
}

// shownMatches is how many matched pairs the comparison lists: an IBP result's 156
// features listed in full made the window grow past the screen.
const shownMatches = 12

// closestPairs lists the best-matched features, the closest first, at most shownMatches
// of them, and says how many more there are.
func closestPairs(matches []app.FeatureMatch, left, right map[int]string) string {
	var found []app.FeatureMatch
	for _, m := range matches {
		if m.Right >= 0 {
			found = append(found, m)
		}
	}
	slices.SortStableFunc(found, func(a, b app.FeatureMatch) int { return cmp.Compare(b.Jaccard, a.Jaccard) })
	var pairs []string
	for _, m := range found[:min(len(found), shownMatches)] {
		pairs = append(pairs, fmt.Sprintf("%s ~ %s (%.2f)", left[m.Left], right[m.Right], m.Jaccard))
	}
	text := strings.Join(pairs, ", ")
	if rest := len(found) - shownMatches; rest > 0 {
		text += fmt.Sprintf(" and %d more pairs", rest)
	}
	return text
}

// featureTitles names each feature column as the features view does.
func featureTitles(p *app.Presentation) map[int]string {
	names := make(map[int]string, len(p.Features))
	for _, f := range p.Features {
		names[f.Index] = app.FeatureLabel(f)
	}
	return names
}

func (s *compareSide) show(p *app.Presentation) {
	s.cards.Objects = nil
	if p == nil {
		s.figure.SetText("")
		s.cards.Refresh()
		return
	}
	s.figure.SetText(fmt.Sprintf("K = %d, %s, %d distinct codes, %.2f s",
		p.Analysis.Result.K, app.ObjectiveText(p.Analysis), len(p.CodeCounts), p.Analysis.Times.Algorithm))
	for _, f := range p.Features {
		img := canvas.NewImageFromImage(f.Image)
		img.FillMode = canvas.ImageFillContain
		img.SetMinSize(fyne.NewSize(compareCell, compareCell*3/4))
		title := widget.NewLabelWithStyle(app.FeatureLabel(f), fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
		title.Truncation = fyne.TextTruncateEllipsis
		owners := widget.NewLabelWithStyle(fmt.Sprintf("%d images", f.Owners), fyne.TextAlignCenter, fyne.TextStyle{})
		label := s.alg.Title + ": " + app.FeatureLabel(f)
		zoom := newZoomImage(s.win, img, func() (string, image.Image) { return label, nil })
		s.cards.Add(container.NewVBox(zoom, title, owners))
	}
	s.cards.Refresh()
}
