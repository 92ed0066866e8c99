package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"featurelab/assets"
	"featurelab/internal/about"
)

// aboutTitle is the Help menu's item and the title of the dialog it opens.
const aboutTitle = "About Feature Lab"

// showAbout opens the About dialog: the icon and what `featurelab --version` prints, so a
// user reporting a problem from the window can copy the same facts.
func (ui *UI) showAbout() {
	text := about.Current().String()
	icon := canvas.NewImageFromResource(fyne.NewStaticResource("icon.png", assets.Icon()))
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSquareSize(96))
	facts := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	facts.Selectable = true
	copyButton := widget.NewButton("Copy", func() { ui.fyneApp.Clipboard().SetContent(text) })
	dialog.ShowCustom(aboutTitle, "Close", container.NewBorder(nil, container.NewCenter(copyButton), icon, nil, facts), ui.win)
}
