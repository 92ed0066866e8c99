package views

import (
	"fyne.io/fyne/v2/widget"

	"featurelab/assets"
)

func writeSampleTo(dir, name string) error { return assets.WriteSet(dir, name) }

func widgetCell(row, col int) widget.TableCellID { return widget.TableCellID{Row: row, Col: col} }
