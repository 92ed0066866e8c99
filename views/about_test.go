package views

import (
	"runtime"
	"strings"
	"testing"

	"featurelab/internal/about"
)

// TestHelpAboutShowsTheBuild: Help → About opens a dialog with what --version prints (the
// commit and the Go version among it), and Copy puts that text on the clipboard.
func TestHelpAboutShowsTheBuild(t *testing.T) {
	ui := newTestUI(t)
	var open func()
	for _, m := range ui.mainMenu().Items {
		for _, it := range m.Items {
			if m.Label == "Help" && it.Label == aboutTitle {
				open = it.Action
			}
		}
	}
	if open == nil {
		t.Fatalf("no Help → %s in the menus", aboutTitle)
	}
	open()
	shown := overlayText(ui.win)
	want := about.Current().String()
	for _, line := range []string{"commit: ", "go:     " + runtime.Version()} {
		if !strings.Contains(want, line) || !strings.Contains(shown, line) {
			t.Fatalf("the About dialog shows %q, want a line with %q", shown, line)
		}
	}
	ui.fyneApp.Clipboard().SetContent("")
	copied := false
	for _, b := range overlayButtons(ui.win) {
		if b.Text == "Copy" {
			b.OnTapped()
			copied = true
		}
	}
	if got := ui.fyneApp.Clipboard().Content(); !copied || got != want {
		t.Fatalf("Copy (found %v) put %q on the clipboard, want %q", copied, got, want)
	}
}
