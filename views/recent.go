package views

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"featurelab/app"
)

// recentAnalyses keeps the results of this session that another data set replaced, so
// that loading a folder over a result nobody saved does not lose it: each is written as
// a saved analysis to a folder of its own under the system's temporary folder, and File
// → Recent analyses reopens it (folder, load options, parameters and result). The folder
// goes when the window closes. Use it on the UI goroutine.
type recentAnalyses struct {
	dir   string // made on first use; "" until then
	items []recentAnalysis
	kept  map[*app.Presentation]bool // results written already, or opened from here
	// opened holds the analyses being reopened from here: once shown they are kept
	// already.
	opened map[*app.SavedAnalysis]bool
}

// recentAnalysis is one kept result: how the menu names it and the file that holds it;
// ready once the file is written.
type recentAnalysis struct {
	label string
	path  string
	ready bool
}

// mostRecent is how many kept results the menu lists, the newest first; older files
// are removed.
const mostRecent = 10

// keepResults writes every result of the session on the data set being replaced to the
// session's folder in the background, with the load options it was read with, and says
// how many it kept. It returns that number.
func (ui *UI) keepResults() int {
	r := &ui.recent
	var kept int
	for _, algo := range ui.session.Algorithms() {
		p := ui.session.Result(algo)
		if r.kept[p] {
			continue
		}
		if r.dir == "" {
			dir, err := os.MkdirTemp("", "featurelab-session-")
			if err != nil {
				ui.status.idle("Could not keep the results: " + err.Error())
				return kept
			}
			r.dir = dir
		}
		if r.kept == nil {
			r.kept = map[*app.Presentation]bool{}
		}
		r.kept[p] = true
		a, load := p.Analysis, ui.dataset.loaded
		path := filepath.Join(r.dir, fmt.Sprintf("%d-%s", len(r.kept), savedName(a)))
		r.items = append([]recentAnalysis{{label: recentLabel(a, time.Now()), path: path}}, r.items...)
		if len(r.items) > mostRecent {
			os.Remove(r.items[mostRecent].path)
			r.items = r.items[:mostRecent]
		}
		kept++
		ui.jobs.Start("keep "+path, func(context.Context) {
			err := app.SaveAnalysis(a, path, load)
			fyne.Do(func() {
				// A result that could not be written leaves the list, which it would
				// otherwise hold a place in, never shown.
				r.items = slices.DeleteFunc(r.items, func(it recentAnalysis) bool { return it.path == path && err != nil })
				for i := range r.items {
					if r.items[i].path == path {
						r.items[i].ready = true
					}
				}
				if err != nil {
					ui.status.idle("Could not keep the " + a.Algorithm.Title + " result: " + err.Error())
				}
				ui.refreshMenu()
			})
		})
	}
	// The results just kept belong to the session being replaced: held here they would
	// keep its data alive (pixels, PCA) for the rest of the session.
	r.kept = nil
	return kept
}

// recentLabel names a kept result in the menu: the algorithm, the data set, K and the
// time it was set aside, "IBP Gibbs sampler on orl_faces: K = 45 (14:02)".
func recentLabel(a *app.Analysis, at time.Time) string {
	data := a.Source.Sample + " (sample)"
	if a.Source.Dir != "" {
		data = filepath.Base(a.Source.Dir)
	}
	return fmt.Sprintf("%s on %s: K = %d (%s)", a.Algorithm.Title, data, a.Result.K, at.Format("15:04"))
}

// recentMenu is File → Recent analyses: an item per kept result written, the newest
// first; disabled while there is none.
func (ui *UI) recentMenu() *fyne.MenuItem {
	item := fyne.NewMenuItem("Recent analyses", nil)
	for _, r := range ui.recent.items {
		if r.ready {
			item.ChildMenu = appendItem(item.ChildMenu, fyne.NewMenuItem(r.label, ui.unlessDialog(func() { ui.openRecent(r.path) })))
		}
	}
	item.Disabled = item.ChildMenu == nil
	return item
}

// openRecent reopens a kept result. Opened, it is not kept again when the next data set
// replaces it: its file is in the list already.
func (ui *UI) openRecent(path string) {
	ui.openAnalysis(path, func(s *app.SavedAnalysis) {
		if ui.recent.opened == nil {
			ui.recent.opened = map[*app.SavedAnalysis]bool{}
		}
		ui.recent.opened[s] = true
	})
}

// shownAgain notes that pres, shown from s, is a kept result reopened: it is in the list.
func (r *recentAnalyses) shownAgain(s *app.SavedAnalysis, pres *app.Presentation) {
	if !r.opened[s] {
		return
	}
	delete(r.opened, s)
	if r.kept == nil {
		r.kept = map[*app.Presentation]bool{}
	}
	r.kept[pres] = true
}

// forget removes the session's folder and every result kept in it.
func (r *recentAnalyses) forget() {
	if r.dir != "" {
		os.RemoveAll(r.dir)
	}
	*r = recentAnalyses{}
}

// keptText opens the status line after a new data set set results aside. It comes
// before the line about the load: at 1024 pixels a long folder's path would cut it off.
// Words, not an arrow: the window's font has no "→".
func keptText(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "The previous result is in File, Recent analyses. "
	}
	return fmt.Sprintf("The %d previous results are in File, Recent analyses. ", n)
}
