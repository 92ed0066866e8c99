package views

import (
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
)

// The window's keys. A key goes to the widget with the focus, when there is one, and
// only otherwise to the window (Canvas.OnTypedKey); Esc is not a shortcut to Fyne (a
// shortcut needs a modifier), so a dropdown, a check box or a table clicked into kept
// Esc to themselves and the run went on. Every focusable widget of the window is
// therefore one of the types below, which hand Esc on to the window, where it answers
// the dialog on top or, with none, cancels what runs (UI.typedKey).
// TestEscFromEveryFocusedWidgetCancels walks the window for any that does not.

// typedKey is the window's own handling of a key no widget took: Esc answers the dialog
// on top with its Cancel/No/Close or, with no dialog, cancels whatever runs; Enter
// answers a dialog with its default button.
func (ui *UI) typedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape:
		if ui.answerDialog(false) {
			return
		}
		ui.cancelAll()
	case fyne.KeyReturn, fyne.KeyEnter:
		ui.answerDialog(true)
	}
}

// dialogShowing reports whether something is over the window: a dialog (all of Fyne's
// are modal) or an open dropdown.
func (ui *UI) dialogShowing() bool {
	return ui.win != nil && ui.win.Canvas().Overlays().Top() != nil
}

// topPopUp is the pop-up of the dialog on top of the window, or nil. Fyne wraps a shown
// pop-up in an overlay container of an internal type, whose exported Content is the
// pop-up; it is read by name, and nil is the answer if that ever changes.
func (ui *UI) topPopUp() *widget.PopUp {
	if ui.win == nil {
		return nil
	}
	top := ui.win.Canvas().Overlays().Top()
	if p, ok := top.(*widget.PopUp); ok {
		return p
	}
	v := reflect.ValueOf(top)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("Content")
	if !f.IsValid() || !f.CanInterface() {
		return nil
	}
	p, _ := f.Interface().(*widget.PopUp)
	return p
}

// unlessDialog is do, but doing nothing while a modal dialog is showing: the window's
// shortcuts and menu items ran behind "Nothing to export", and a second Ctrl+O stacked
// a second Open folder over the first.
func (ui *UI) unlessDialog(do func()) func() {
	return func() {
		if !ui.dialogShowing() {
			do()
		}
	}
}

// answerDialog presses a button of the dialog on top, as Esc (confirm false: Cancel, No,
// Close, or a lone OK) or Enter (confirm true: the highlighted button, or a lone OK)
// would in a desktop dialog; it reports whether a dialog was there to take the key.
func (ui *UI) answerDialog(confirm bool) bool {
	if !ui.dialogShowing() {
		return false
	}
	p := ui.topPopUp()
	if p == nil {
		return true // an open dropdown: it has the keys itself
	}
	buttons := dialogButtons(p.Content)
	var press *widget.Button
	if confirm {
		for _, b := range buttons {
			if b.Importance == widget.HighImportance {
				press = b
				break
			}
		}
	} else {
		dismiss := map[string]bool{lang.L("Cancel"): true, lang.L("No"): true, lang.L("Close"): true, "Cancel": true, "No": true, "Close": true}
		for _, b := range buttons {
			if dismiss[b.Text] {
				press = b
				break
			}
		}
	}
	if press == nil && len(buttons) == 1 {
		press = buttons[0] // an information or error dialog's OK
	}
	switch {
	case press != nil && !press.Disabled() && press.OnTapped != nil:
		press.OnTapped()
	case press == nil && !confirm:
		p.Hide() // a dialog with no way out named: Esc still closes it
	}
	return true
}

// dialogButtons is the buttons with a label among o's containers, where dialogs keep
// theirs (the icon-only buttons of a file chooser's toolbar are left out).
func dialogButtons(o fyne.CanvasObject) []*widget.Button {
	var found []*widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch o := o.(type) {
		case *widget.Button:
			if o.Text != "" {
				found = append(found, o)
			}
		case *fyne.Container:
			for _, c := range o.Objects {
				walk(c)
			}
		}
	}
	walk(o)
	return found
}

// escapeToWindow hands Esc typed into the focused widget o to the window, leaving the
// widget as if nothing had the focus; it reports whether the key was Esc.
func escapeToWindow(o fyne.CanvasObject, ev *fyne.KeyEvent) bool {
	if ev.Name != fyne.KeyEscape {
		return false
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(o)
	if c == nil {
		return false
	}
	c.Unfocus()
	if f := c.OnTypedKey(); f != nil {
		f(ev)
	}
	return true
}

// escSelect is a dropdown that hands Esc to the window.
type escSelect struct{ widget.Select }

func newSelect(options []string, changed func(string)) *escSelect {
	s := &escSelect{}
	s.Options, s.OnChanged, s.PlaceHolder = options, changed, lang.L("(Select one)")
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey is the dropdown's, but for Esc.
func (s *escSelect) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToWindow(s, ev) {
		s.Select.TypedKey(ev)
	}
}

// escCheck is a check box that hands Esc to the window.
type escCheck struct{ widget.Check }

func newCheck(label string, changed func(bool)) *escCheck {
	c := &escCheck{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey is the check box's, but for Esc.
func (c *escCheck) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToWindow(c, ev) {
		c.Check.TypedKey(ev)
	}
}

// escTable is a table (with headers) that hands Esc to the window.
type escTable struct{ widget.Table }

func newTableWithHeaders(length func() (int, int), create func() fyne.CanvasObject, update func(widget.TableCellID, fyne.CanvasObject)) *escTable {
	t := &escTable{}
	t.Length, t.CreateCell, t.UpdateCell = length, create, update
	t.ShowHeaderRow, t.ShowHeaderColumn = true, true
	t.ExtendBaseWidget(t)
	return t
}

// TypedKey is the table's, but for Esc.
func (t *escTable) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToWindow(t, ev) {
		t.Table.TypedKey(ev)
	}
}

// escList is a list that hands Esc to the window.
type escList struct{ widget.List }

func newList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *escList {
	l := &escList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey is the list's, but for Esc.
func (l *escList) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToWindow(l, ev) {
		l.List.TypedKey(ev)
	}
}

// escGridWrap is a grid of thumbnails that hands Esc to the window.
type escGridWrap struct{ widget.GridWrap }

func newGridWrap(length func() int, create func() fyne.CanvasObject, update func(widget.GridWrapItemID, fyne.CanvasObject)) *escGridWrap {
	g := &escGridWrap{}
	g.Length, g.CreateItem, g.UpdateItem = length, create, update
	g.ExtendBaseWidget(g)
	return g
}

// TypedKey is the grid's, but for Esc.
func (g *escGridWrap) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToWindow(g, ev) {
		g.GridWrap.TypedKey(ev)
	}
}
