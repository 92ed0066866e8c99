package views

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/widget"

	"featurelab/assets"
)

func writeSampleTo(dir, name string) error { return assets.WriteSet(dir, name) }

func widgetCell(row, col int) widget.TableCellID { return widget.TableCellID{Row: row, Col: col} }

// writePNGs writes picture(i) as PNG to dir/names[i] for every name.
func writePNGs(t *testing.T, dir string, names []string, picture func(i int) image.Image) {
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
