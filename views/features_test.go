package views

import (
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms"
	"featurelab/internal/accuracy"
)

// TestFeatureCardsSayWhatEachFeatureDoes: after K-features on the tabletop sample, the
// Features tab's cards read "base" and then "#n adds" — the objects added to the empty
// table — each with its owners, the share of the data it explains and how stable it is
// on half-samples of the images beside it. What the cards say is the tabletop's reading
// after 100 restarts: an accuracy check, in the pass without the race detector.
func TestFeatureCardsSayWhatEachFeatureDoes(t *testing.T) {
	accuracy.Check(t)
	ui := loadedUI(t)
	ui.run.picker.SetSelected(algorithms.Title("kfeatures"))
	setParam(ui, "k", "5")
	setParam(ui, "restarts", "100")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("no result after Run: %s", ui.status.text())
	}
	caption := regexp.MustCompile(`^#[2-5] adds$`)
	beside := regexp.MustCompile(`^\d+ images\nexplains \d+\.\d%\nstable (0|25|50|75|100)%\non/off$`)
	cards := ui.features.cards.Objects
	if len(cards) != 5 {
		t.Fatalf("%d cards, want 5", len(cards))
	}
	for c, card := range cards {
		var texts []string
		for _, o := range card.(*fyne.Container).Objects {
			if l, ok := o.(*widget.Label); ok {
				texts = append(texts, l.Text)
			}
		}
		if len(texts) != 2 {
			t.Fatalf("card %d has labels %q", c, texts)
		}
		if c == 0 {
			if texts[0] != "base" || !regexp.MustCompile(`^100 images\n \nstable (0|25|50|75|100)%\n $`).MatchString(texts[1]) {
				t.Errorf("the base card reads %q", texts)
			}
			continue
		}
		if !caption.MatchString(texts[0]) || !beside.MatchString(texts[1]) {
			t.Errorf("card %d reads %q", c, texts)
		}
	}
	// At 1024×700 a whole card, Show owners included, can be scrolled into view: the
	// header and the λ² path scroll away with the cards instead of keeping 270 px.
	ui.win.Resize(fyne.NewSize(smallScreen.w, smallScreen.h))
	ui.tabs.SelectIndex(tabFeatures)
	if h := ui.features.scroll.Size().Height; h < featureCard.Height {
		t.Errorf("at 1024×700 the cards scroll in %v px, less than a card's %v", h, featureCard.Height)
	}
	// Scrolled down the cards, a new run shows its own from the top.
	ui.features.scroll.ScrollToOffset(fyne.NewPos(0, 200))
	setParam(ui, "k", "4")
	test.Tap(ui.run.runBtn)
	ui.Wait()
	if y := ui.features.scroll.Offset.Y; ui.pres.Analysis.Result.K != 4 || y != 0 {
		t.Errorf("after a new run (K = %d) the cards are scrolled to %v", ui.pres.Analysis.Result.K, y)
	}
}

// TestClusterCardsAreShort: a clustering's cards hold its centre, caption, owners and
// Show owners, no blank where a feature's "alone" picture goes and no blank lines for
// figures it has none of, so they are shorter than a feature's card: after K-means on
// the cards at 1024×700, one row of cards and the blanks filled the tab.
func TestClusterCardsAreShort(t *testing.T) {
	ui := newTestUI(t)
	diceKMeans(t, ui)
	card := ui.features.cards.Objects[0].(*fyne.Container)
	if n := len(card.Objects); n != 4 {
		t.Errorf("a cluster's card holds %d objects, want 4: centre, caption, owners, Show owners", n)
	}
	if l := card.Objects[2].(*widget.Label); !regexp.MustCompile(`^\d+ images$`).MatchString(l.Text) {
		t.Errorf("owners %q", l.Text)
	}
	if h := card.MinSize().Height; h >= featureCard.Height*2/3 {
		t.Errorf("a cluster's card is %v tall, a feature's %v", h, featureCard.Height)
	}
	ui.run.picker.SetSelected(algorithms.Title("kfeatures"))
	ui.run.start()
	ui.Wait()
	if n := len(ui.features.cards.Objects[0].(*fyne.Container).Objects); n != 5 {
		t.Errorf("after K-features a card holds %d objects, want 5", n)
	}
}

// diceKMeans runs K-means with K = 3 and two restarts on the dice sample in ui.
func diceKMeans(t *testing.T, ui testUI) {
	t.Helper()
	ui.LoadSample("dice")
	ui.Wait()
	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "3")
	setParam(ui, "restarts", "2")
	ui.run.start()
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("no result: %s", ui.status.text())
	}
}

// TestFolderWithNoObjectsSaysSoAtTheHead: when a result's folder has no objects that
// come and go (app.Presentation.NoObjects), its note opens the Features tab's header
// and is not repeated beside the λ² path; otherwise the path keeps its note and the
// header has none.
func TestFolderWithNoObjectsSaysSoAtTheHead(t *testing.T) {
	ui := smallUI(t)
	if res := runAlgorithm(t, ui, "stepwise", map[string]string{"lambda2": "", "restarts": "5"}); len(res.Analysis.Path()) == 0 {
		t.Fatal("no λ² path in the stepwise result")
	}
	const note = "No objects come and go in these pictures: 5 of the 5 features are patterns shared by groups of pictures"
	p := *ui.pres
	p.KNote, p.NoObjects = note, true
	ui.features.show(&p)
	if h := ui.features.header.Text; !strings.HasPrefix(h, note+".") {
		t.Errorf("the header does not open with the note: %q", h)
	}
	if l := ui.features.pathLbl.Text; strings.Contains(l, note) {
		t.Errorf("the note beside the λ² path too: %q", l)
	}
	p.KNote, p.NoObjects = "No K stands out: 9 of the 11 features vary by degrees", false
	ui.features.show(&p)
	if h, l := ui.features.header.Text, ui.features.pathLbl.Text; strings.Contains(h, "No K stands out") || !strings.Contains(l, p.KNote) {
		t.Errorf("a note of K, not of the folder: header %q, path %q", h, l)
	}
}
