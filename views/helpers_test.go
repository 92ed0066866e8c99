package views

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"featurelab/assets"
)

func writeSampleTo(dir, name string) error { return assets.WriteSet(dir, name) }

func widgetCell(row, col int) widget.TableCellID { return widget.TableCellID{Row: row, Col: col} }

// writePNGs writes picture(i) as PNG to dir/names[i] for every name.
func writePNGs(t testing.TB, dir string, names []string, picture func(i int) image.Image) {
	t.Helper()
	for i, name := range names {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, picture(i)); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// writeTwoPictures writes a.png and b.png, two 8×6 greys that differ (a PCA needs two
// different pictures).
func writeTwoPictures(t *testing.T, dir string) {
	t.Helper()
	writePNGs(t, dir, []string{"a.png", "b.png"}, func(i int) image.Image {
		img := image.NewGray(image.Rect(0, 0, 8, 6))
		img.Pix[i] = 200
		return img
	})
}

// overlayText returns the text of every label and rich text in the window's top overlay
// (a dialog), joined by newlines, or "" when no dialog is open.
func overlayText(w fyne.Window) string {
	var parts []string
	for _, o := range overlayObjects(w) {
		switch o := o.(type) {
		case *widget.Label:
			parts = append(parts, o.Text)
		case *widget.RichText:
			parts = append(parts, o.String())
		case *canvas.Text:
			parts = append(parts, o.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// overlayButtons returns the buttons in the window's top overlay (a dialog).
func overlayButtons(w fyne.Window) []*widget.Button {
	var buttons []*widget.Button
	for _, o := range overlayObjects(w) {
		if b, ok := o.(*widget.Button); ok {
			buttons = append(buttons, b)
		}
	}
	return buttons
}

// overlayObjects returns every object in the window's top overlay, widgets and what
// their renderers draw, parents first; none when no dialog is open.
func overlayObjects(w fyne.Window) []fyne.CanvasObject {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	var all []fyne.CanvasObject
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		all = append(all, o)
		if w, ok := o.(fyne.Widget); ok {
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
			return
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, child := range c.Objects {
				walk(child)
			}
		}
	}
	walk(top)
	return all
}
