package views

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms"
)

// focusables is every widget of o's visible tree that can take the focus and is
// enabled, buttons left out (a click on a button takes the focus away from any widget;
// only Tab gives it one).
func focusables(o fyne.CanvasObject) []fyne.Focusable {
	var found []fyne.Focusable
	seen := map[fyne.CanvasObject]bool{}
	walkVisible(o, func(o fyne.CanvasObject) {
		f, ok := o.(fyne.Focusable)
		if !ok || seen[o] {
			return
		}
		seen[o] = true
		_, button := o.(*widget.Button)
		d, canDisable := o.(fyne.Disableable)
		if !button && !(canDisable && d.Disabled()) {
			found = append(found, f)
		}
	})
	return found
}

// longRun starts a K-means run that takes far longer than the test (100 000 restarts).
func longRun(ui testUI) {
	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "3")
	setParam(ui, "restarts", "100000")
	ui.run.start()
}

// TestEscFromEveryFocusedWidgetCancels: on every tab, with a result shown, each widget
// that can take the focus — the dropdowns, the entries, the check boxes, the codes table,
// the thumbnail grids — is focused during a run, and Esc typed into it cancels the run,
// as the window's driver sends keys (to the focused widget when there is one).
func TestEscFromEveryFocusedWidgetCancels(t *testing.T) {
	ui := smallUI(t)
	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "3")
	setParam(ui, "restarts", "2")
	ui.run.start()
	ui.Wait()
	first := ui.pres
	if first == nil {
		t.Fatalf("no result: %s", ui.status.text())
	}
	c := ui.win.Canvas()
	c.SetContent(ui.content) // the test window sizes the content to the canvas
	ui.win.Resize(fyne.NewSize(1024, 700))
	esc := &fyne.KeyEvent{Name: fyne.KeyEscape}
	tried := map[string]int{}
	for tab := range ui.tabs.Items {
		ui.tabs.SelectIndex(tab)
		for _, f := range focusables(ui.content) {
			longRun(ui)
			c.Focus(f)
			if c.Focused() != f {
				continue // a widget the run disabled
			}
			name := fmt.Sprintf("%s: %T", ui.tabs.Items[tab].Text, f)
			tried[name]++
			f.TypedKey(esc)
			ui.Wait()
			if ui.pres != first || !strings.HasPrefix(ui.status.text(), "Run cancelled") {
				t.Fatalf("Esc in %s did not cancel the run: status %q", name, ui.status.text())
			}
			if c.Focused() != nil {
				t.Errorf("Esc in %s left the focus on %T", name, c.Focused())
			}
		}
	}
	// The ones a user meets first must be among them.
	for _, want := range []string{"Dataset: *views.escSelect", "Dataset: *views.hintEntry", "Dataset: *views.escGridWrap",
		"Codes: *views.escTable", "Segmentation: *views.escSelect", "Co-segmentation: *views.escList"} {
		if tried[want] == 0 {
			t.Errorf("no %s was tried; tried %v", want, tried)
		}
	}
	t.Logf("widgets tried: %v", tried)
}

// TestDialogsTakeEnterAndEscAndBlockShortcuts: an information dialog closes on Enter
// and on Esc; while a dialog shows, no shortcut or menu item acts behind it (Run, Export,
// a second Open folder); Esc in the Open folder dialog's path field closes it.
func TestDialogsTakeEnterAndEscAndBlockShortcuts(t *testing.T) {
	ui := newTestUI(t)
	c := ui.win.Canvas()
	shortcut := func(sc fyne.Shortcut) { ui.shortcuts()[sc]() } // what addShortcuts registers on the canvas
	for _, key := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape} {
		shortcut(shortcutRun) // no data yet: a dialog says so
		if !strings.Contains(overlayText(ui.win), "Open a folder") {
			t.Fatalf("no dialog after Run with no data: %q", overlayText(ui.win))
		}
		c.OnTypedKey()(&fyne.KeyEvent{Name: key})
		if top := c.Overlays().Top(); top != nil {
			t.Fatalf("%s left the dialog open: %q", key, overlayText(ui.win))
		}
	}

	loadShared(t, ui, "tabletop")
	shortcut(shortcutOpen)
	if n := len(c.Overlays().List()); n != 1 {
		t.Fatalf("%d overlays after Ctrl+O", n)
	}
	status := ui.status.text()
	shortcut(shortcutRun)
	shortcut(shortcutRunEnter)
	shortcut(shortcutExportGrid)
	shortcut(shortcutSaveAnalysis)
	shortcut(shortcutOpen)
	for _, m := range ui.mainMenu().Items { // as a click on a menu would, or its shortcut
		for _, it := range m.Items {
			if it.Action != nil {
				it.Action()
			}
		}
	}
	ui.Wait()
	if ui.jobs.Running("run") || ui.pres != nil || ui.status.text() != status || ui.dataset.source.SampleName() != "tabletop" {
		t.Fatalf("a shortcut acted behind the dialog: status %q (was %q)", ui.status.text(), status)
	}
	if n := len(c.Overlays().List()); n != 1 {
		t.Fatalf("%d overlays: a shortcut opened a dialog over the dialog", n)
	}
	// Esc typed into the path field, which has the focus, closes the dialog.
	o := ui.dataset.openDialog
	if c.Focused() != o.path {
		t.Fatalf("the path field is not focused (%T is)", c.Focused())
	}
	o.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if top := c.Overlays().Top(); top != nil {
		t.Fatalf("Esc in the path field left the dialog open: %q", overlayText(ui.win))
	}
	// With the dialog gone the shortcuts act again.
	shortcut(shortcutExportGrid)
	if got := ui.status.text(); got != "Nothing to export: run an algorithm first" {
		t.Fatalf("Ctrl+E after the dialog: status %q", got)
	}
}

// TestOneRunAndOneCancelPerTab: every tab shows one Cancel, the status bar's, and the
// Segmentation and Co-segmentation tabs hide the run panel: there Ctrl+R segments the
// picture or co-segments the images instead of running a feature learner and jumping to
// Features.
func TestOneRunAndOneCancelPerTab(t *testing.T) {
	ui := smallUI(t)
	ui.win.Resize(fyne.NewSize(1024, 700))
	for tab := range ui.tabs.Items {
		ui.tabs.SelectIndex(tab)
		var cancels, runs int
		walkVisible(ui.content, func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok {
				switch b.Text {
				case "Cancel":
					cancels++
				case "Run", "Segment", "Co-segment":
					runs++
				}
			}
		})
		if name := ui.tabs.Items[tab].Text; cancels != 1 || runs != 1 {
			t.Errorf("%s tab: %d Cancel and %d run buttons, want one each", name, cancels, runs)
		}
	}
	for _, tc := range []struct {
		tab  int
		busy string
	}{{tabSegmentation, "Segment"}, {tabCosegmentation, "Co-segment"}} {
		ui.tabs.SelectIndex(tc.tab)
		ui.shortcuts()[shortcutRun]()
		if got := ui.status.text(); !strings.HasPrefix(got, tc.busy) {
			t.Errorf("Ctrl+R on the %s tab: status %q", ui.tabs.Items[tc.tab].Text, got)
		}
		ui.Wait()
		if ui.pres != nil || ui.tabs.SelectedIndex() != tc.tab {
			t.Errorf("Ctrl+R on the %s tab ran a feature learner or left the tab", ui.tabs.Items[tc.tab].Text)
		}
	}
}
