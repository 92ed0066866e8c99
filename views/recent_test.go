package views

import (
	"os"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// TestLoadingKeepsTheResultInRecentAnalyses: a folder loaded over a result nobody saved
// no longer drops it. The status line says where it went, File → Recent analyses lists
// it, and choosing it brings back its data set, algorithm and codes; reopened, it is
// not listed twice when the next data set replaces it. The session's folder goes with
// the window.
func TestLoadingKeepsTheResultInRecentAnalyses(t *testing.T) {
	ui := newTestUI(t)
	if item := recentItem(ui); !item.Disabled || item.ChildMenu != nil {
		t.Fatalf("Recent analyses before any result: disabled %v, %v", item.Disabled, item.ChildMenu)
	}
	diceKMeans(t, ui)
	want := ui.pres.Analysis.Codes()

	ui.LoadSample("tetris")
	ui.Wait()
	if got := ui.status.text(); !strings.HasPrefix(got, "The previous result is in File, Recent analyses. Loaded 100 images") {
		t.Errorf("status %q", got)
	}
	item := recentItem(ui)
	if item.Disabled || item.ChildMenu == nil || len(item.ChildMenu.Items) != 1 ||
		!strings.HasPrefix(item.ChildMenu.Items[0].Label, "K-means on dice (sample): K = 3 (") {
		t.Fatalf("Recent analyses: disabled %v, %v", item.Disabled, item.ChildMenu)
	}
	dir := ui.recent.dir
	item.ChildMenu.Items[0].Action()
	ui.Wait()
	if ui.pres == nil || ui.dataset.source.Sample != "dice" || ui.pres.Analysis.Algorithm.Name != "kmeans" ||
		!slices.Equal(ui.pres.Analysis.Codes(), want) {
		t.Fatalf("reopened: %v on %v (%s)", ui.pres != nil, ui.dataset.source, ui.status.text())
	}

	ui.LoadSample("tetris")
	ui.Wait()
	if item := recentItem(ui); len(item.ChildMenu.Items) != 1 {
		t.Errorf("the reopened result is listed again: %d items", len(item.ChildMenu.Items))
	}
	ui.recent.forget()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the session's folder %s is still there: %v", dir, err)
	}
}

// recentItem is File → Recent analyses as the window's menu shows it now.
func recentItem(ui testUI) *fyne.MenuItem {
	for _, it := range ui.mainMenu().Items[0].Items {
		if it.Label == "Recent analyses" {
			return it
		}
	}
	return nil
}
