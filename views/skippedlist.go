package views

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// skippedLines is the most lines of the skipped list shown at once; the rest scroll.
const skippedLines = 4

// skippedList is the files a load skipped, a line each under a title, in a list that
// lays out only the lines in view, so that a folder with thousands of stray files (a
// camera's raw files beside its JPEGs) costs a few lines at each refresh of the window,
// not thousands. It is as tall as its lines up to skippedLines, so a short list takes no
// more room than it needs, and a long one scrolls; a line too long for the window ends
// in an ellipsis.
type skippedList struct {
	lines  []string
	list   *escList
	height *canvas.Rectangle // holds the box at the height of its lines
	box    *fyne.Container   // the list, shown when there are lines
}

func newSkippedList() *skippedList {
	s := &skippedList{}
	s.list = newList(func() int { return len(s.lines) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < len(s.lines) {
				o.(*widget.Label).SetText(s.lines[id])
			}
		})
	s.list.OnSelected = func(id widget.ListItemID) { s.list.Unselect(id) } // lines to read, not to pick
	s.height = canvas.NewRectangle(color.Transparent)
	s.box = container.NewStack(s.height, s.list)
	s.box.Hide()
	return s
}

// text is the list's lines as text, "" when it is hidden.
func (s *skippedList) text() string { return strings.Join(s.lines, "\n") }

// set shows text, a line a file under its title, or hides the list when text is "".
func (s *skippedList) set(text string) {
	if text == "" {
		s.lines = nil
		s.list.Refresh()
		s.box.Hide()
		return
	}
	s.lines = strings.Split(text, "\n")
	s.height.SetMinSize(fyne.NewSize(0, skippedHeight(min(len(s.lines), skippedLines))))
	s.list.Refresh()
	s.list.ScrollToTop()
	s.box.Show()
}

// skippedHeight is the height of rows lines of the list: each a line of text, with the
// list's separator between them.
func skippedHeight(rows int) float32 {
	row := widget.NewLabel("").MinSize().Height
	return float32(rows)*row + float32(rows-1)*theme.Padding()
}
