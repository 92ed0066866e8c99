package views

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"featurelab/algorithms"
)

// TestShowOwnersScrollsToTheFirstOwner: Show owners of the cluster whose first owner is
// furthest down the codes table switches to Codes with that row drawn inside the table
// at 1024×700, marked and selected, and the detail pane showing it.
func TestShowOwnersScrollsToTheFirstOwner(t *testing.T) {
	ui := smallUI(t)
	ui.win.Resize(fyne.NewSize(1024, 700))
	ui.run.picker.SetSelected(algorithms.Title("kmeans"))
	setParam(ui, "k", "10")
	setParam(ui, "restarts", "2")
	ui.run.start()
	ui.Wait()
	if ui.pres == nil {
		t.Fatalf("no result: %s", ui.status.text())
	}
	// The card whose first owner is the furthest down.
	card, first := -1, -1
	for i, f := range ui.pres.Features {
		if owners := ui.pres.Owners[f.Index]; len(owners) > 0 && slices.Min(owners) > first {
			card, first = i, slices.Min(owners)
		}
	}
	if first < 20 {
		t.Fatalf("every cluster has an owner in the first 20 rows (the furthest %d): nothing to scroll to", first)
	}
	test.Tap(ui.features.buttons[card])
	if ui.tabs.SelectedIndex() != tabCodes {
		t.Fatalf("Show owners left the tab at %d", ui.tabs.SelectedIndex())
	}
	name := ui.pres.Analysis.Data.Names[first]
	table := ui.codes.table
	var cell *widget.Label
	walkVisible(table, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Text == name {
			cell = l
		}
	})
	if cell == nil {
		t.Fatalf("row %d (%s), the first owner, is not drawn in the table", first, name)
	}
	if testing.Verbose() {
		t.Logf("first owner at row %d", first)
	}
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(table).Y
	bottom := top + table.Size().Height
	if y := d.AbsolutePositionForObject(cell).Y; y < top || y+cell.Size().Height > bottom {
		t.Fatalf("row %d is drawn at y %v, outside the table's %v–%v", first, y, top, bottom)
	}
	if cell.Importance != widget.HighImportance {
		t.Errorf("row %d is not marked as an owner", first)
	}
	if ui.codes.selected != first {
		t.Errorf("row %d is selected, want the first owner %d", ui.codes.selected, first)
	}
}

// walkVisible calls see on o and every visible object under it, through the widgets'
// renderers.
func walkVisible(o fyne.CanvasObject, see func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	see(o)
	switch o := o.(type) {
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(o).Objects() {
			walkVisible(c, see)
		}
	case *fyne.Container:
		for _, c := range o.Objects {
			walkVisible(c, see)
		}
	}
}
