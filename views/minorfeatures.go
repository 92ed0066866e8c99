package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"featurelab/app"
)

// minorFold is the Features tab's one entry for a result's minor features
// (report.RankFeatures): "N minor features …" and a button that shows their cards below
// it, or folds them again: a result with many features, most of them a few pixels of
// jitter (the IBP's on the ORL faces), would otherwise make a tab of as many cards. The
// exported grid follows it: with the
// minor features shown, it draws them too.
type minorFold struct {
	box    *fyne.Container // label and button, then the cards; hidden with no minor features
	label  *widget.Label
	toggle *widget.Button
	cards  *fyne.Container
	shown  bool
	feats  []app.Feature
	card   func(app.Feature) fyne.CanvasObject
}

func newMinorFold(card func(app.Feature) fyne.CanvasObject) *minorFold {
	m := &minorFold{card: card}
	m.label = widget.NewLabel("")
	m.label.Wrapping = fyne.TextWrapWord
	m.toggle = widget.NewButton("", func() { m.setShown(!m.shown) })
	m.cards = container.New(layout.NewGridWrapLayout(featureCard))
	m.box = container.NewVBox(container.NewBorder(nil, nil, nil, m.toggle, m.label), m.cards)
	m.box.Hide()
	return m
}

// set folds the minor features of p, the last p.Minor of its features.
func (m *minorFold) set(p *app.Presentation) {
	m.feats = p.Features[len(p.Features)-p.Minor:]
	m.label.SetText(app.MinorText(p.Minor) + ".")
	m.setShown(false)
	if p.Minor == 0 {
		m.box.Hide()
		return
	}
	m.box.Show()
}

// clear drops the minor features when the data set changes.
func (m *minorFold) clear() {
	m.feats = nil
	m.setShown(false)
	m.box.Hide()
}

// setShown shows the minor features' cards, made when first asked for, or folds them.
func (m *minorFold) setShown(on bool) {
	m.shown = on
	m.cards.Objects = nil
	if on {
		for _, f := range m.feats {
			m.cards.Add(m.card(f))
		}
		m.toggle.SetText("Fold them")
	} else {
		m.toggle.SetText("Show them")
	}
	m.cards.Refresh()
}
