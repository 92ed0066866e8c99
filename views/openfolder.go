package views

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// openFolderDialog asks for a folder by its path, typed or pasted, with Browse… for
// Fyne's folder chooser: that chooser has no path field, and reaching a folder in it
// took seven clicks. Enter opens; a path that is not a folder says so and stays.
type openFolderDialog struct {
	path    *hintEntry // Esc in it closes the dialog
	message *widget.Label
	d       *dialog.CustomDialog
}

// chooseFolder shows the open-folder dialog, its path field holding the last folder.
func (p *datasetPanel) chooseFolder() {
	o := &openFolderDialog{path: newHintEntry(), message: widget.NewLabel("")}
	o.path.SetPlaceHolder("/path/to/images or ~/Pictures")
	o.path.SetText(p.ui.fyneApp.Preferences().String(prefLastFolder))
	o.message.Importance = widget.DangerImportance
	o.message.Wrapping = fyne.TextWrapWord
	o.message.Hide()
	open := func() {
		dir, err := folderPath(o.path.Text)
		if err != nil {
			o.message.SetText(err.Error())
			o.message.Show()
			return
		}
		o.d.Hide()
		p.ui.LoadFolder(dir)
	}
	o.path.OnSubmitted = func(string) { open() }
	browse := widget.NewButtonWithIcon("Browse…", theme.FolderOpenIcon(), func() {
		o.d.Hide()
		p.browseFolder(o.path.Text)
	})
	openBtn := widget.NewButtonWithIcon("Open", theme.ConfirmIcon(), open)
	openBtn.Importance = widget.HighImportance
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() { o.d.Hide() })
	content := container.NewVBox(
		widget.NewLabel("Type or paste the path of a folder of images (its subfolders are read too):"),
		container.NewBorder(nil, nil, nil, browse, o.path),
		o.message)
	o.d = dialog.NewCustomWithoutButtons("Open folder", content, p.ui.win)
	o.d.SetButtons([]fyne.CanvasObject{cancel, openBtn})
	o.d.Resize(fyne.NewSize(min(640, p.ui.win.Canvas().Size().Width-40), o.d.MinSize().Height))
	o.d.Show()
	p.ui.win.Canvas().Focus(o.path)
	// The last folder, selected: typing replaces it, an arrow key keeps it to edit.
	o.path.TypedShortcut(&fyne.ShortcutSelectAll{})
	p.openDialog = o
}

// folderPath reads a path typed, pasted or dropped: surrounding spaces and quotes and a
// file:// prefix (as file managers copy paths) are dropped, ~ is the home folder, and a
// file stands for its folder.
func folderPath(text string) (string, error) {
	dir := strings.Trim(strings.TrimSpace(text), `"'`)
	if u, err := url.Parse(dir); err == nil && u.Scheme == "file" {
		dir = u.Path
	}
	if dir == "" {
		return "", errors.New("type the path of a folder")
	}
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, dir[1:])
		}
	}
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return "", errors.New("no such folder: " + dir)
	case !st.IsDir():
		return filepath.Dir(dir), nil // a file's folder, as when a file is dropped
	}
	return dir, nil
}

// browseFolder shows Fyne's folder chooser, starting at start when it is a folder,
// else at the last folder opened.
func (p *datasetPanel) browseFolder(start string) {
	d := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
		if err != nil {
			dialog.ShowError(err, p.ui.win)
			return
		}
		if uri == nil {
			return // cancelled
		}
		p.ui.LoadFolder(uri.Path())
	}, p.ui.win)
	if dir, err := folderPath(start); err == nil {
		start = dir
	} else {
		start = p.ui.fyneApp.Preferences().String(prefLastFolder)
	}
	if l, err := listableURI(start); err == nil {
		d.SetLocation(l)
	}
	d.Show()
	d.Resize(fyne.NewSize(800, 560)) // before Show a FileDialog has no content to size
}
