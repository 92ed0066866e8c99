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

// pathDialog asks for a path, typed or pasted, with Browse… for Fyne's chooser: that
// chooser has no path field, and reaching a folder in it takes many clicks. Enter opens;
// a path that does not resolve says why and stays. Open folder and Open image… both use
// it, so that the two work alike.
type pathDialog struct {
	path    *hintEntry // Esc in it closes the dialog
	message *widget.Label
	d       *dialog.CustomDialog
}

// pathAsk is what a path dialog asks for: its title and prompt, the path it starts with
// (shown selected, so typing replaces it), how a typed text resolves to a path, what
// opens it, and the chooser Browse… shows, starting from the text typed.
type pathAsk struct {
	title, prompt, placeholder, start string
	resolve                           func(text string) (string, error)
	open                              func(path string)
	browse                            func(typed string)
}

// showPathDialog shows a path dialog over win.
func showPathDialog(win fyne.Window, ask pathAsk) *pathDialog {
	o := &pathDialog{path: newHintEntry(), message: widget.NewLabel("")}
	o.path.SetPlaceHolder(ask.placeholder)
	o.path.SetText(ask.start)
	o.message.Importance = widget.DangerImportance
	o.message.Wrapping = fyne.TextWrapWord
	o.message.Hide()
	open := func() {
		path, err := ask.resolve(o.path.Text)
		if err != nil {
			o.message.SetText(err.Error())
			o.message.Show()
			return
		}
		o.d.Hide()
		ask.open(path)
	}
	o.path.OnSubmitted = func(string) { open() }
	browse := widget.NewButtonWithIcon("Browse…", theme.FolderOpenIcon(), func() {
		o.d.Hide()
		ask.browse(o.path.Text)
	})
	openBtn := widget.NewButtonWithIcon("Open", theme.ConfirmIcon(), open)
	openBtn.Importance = widget.HighImportance
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() { o.d.Hide() })
	content := container.NewVBox(widget.NewLabel(ask.prompt), container.NewBorder(nil, nil, nil, browse, o.path), o.message)
	o.d = dialog.NewCustomWithoutButtons(ask.title, content, win)
	o.d.SetButtons([]fyne.CanvasObject{cancel, openBtn})
	o.d.Resize(fyne.NewSize(min(640, win.Canvas().Size().Width-40), o.d.MinSize().Height))
	o.d.Show()
	win.Canvas().Focus(o.path)
	// The last path, selected: typing replaces it, an arrow key keeps it to edit.
	o.path.TypedShortcut(&fyne.ShortcutSelectAll{})
	return o
}

// chooseFolder shows the open-folder dialog, its path field holding the last folder.
func (p *datasetPanel) chooseFolder() {
	p.openDialog = showPathDialog(p.ui.win, pathAsk{
		title:       "Open folder",
		prompt:      "Type or paste the path of a folder of images (its subfolders are read too):",
		placeholder: "/path/to/images or ~/Pictures",
		start:       p.ui.fyneApp.Preferences().String(prefLastFolder),
		resolve:     folderPath,
		open:        p.ui.LoadFolder,
		browse:      p.browseFolder,
	})
}

// cleanPath reads a path typed, pasted or dropped: surrounding spaces and quotes and a
// file:// prefix (as file managers copy paths) are dropped, and ~ is the home folder.
func cleanPath(text, what string) (string, error) {
	path := strings.Trim(strings.TrimSpace(text), `"'`)
	if u, err := url.Parse(path); err == nil && u.Scheme == "file" {
		path = u.Path
	}
	if path == "" {
		return "", errors.New("type the path of " + what)
	}
	if path == "~" || strings.HasPrefix(path, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path[1:])
		}
	}
	return path, nil
}

// picturePath reads the path of a picture typed as folderPath reads a folder's; a folder
// or a missing file says so.
func picturePath(text string) (string, error) {
	path, err := cleanPath(text, "a picture")
	if err != nil {
		return "", err
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return "", errors.New("no such file: " + path)
	case st.IsDir():
		return "", errors.New(path + " is a folder: type the path of a picture in it, or Browse…")
	}
	return path, nil
}

// folderPath reads a folder's path as cleanPath does; a file stands for its folder.
func folderPath(text string) (string, error) {
	dir, err := cleanPath(text, "a folder")
	if err != nil {
		return "", err
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
// else at the last folder opened, and loads the folder chosen.
func (p *datasetPanel) browseFolder(start string) {
	p.ui.browseFolderThen(start, p.ui.fyneApp.Preferences().String(prefLastFolder), p.ui.LoadFolder)
}

// browseFolderThen shows Fyne's folder chooser, starting at start when it is a folder,
// else at fallback, and hands the folder chosen to open.
func (ui *UI) browseFolderThen(start, fallback string, open func(dir string)) {
	d := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
		if err != nil {
			dialog.ShowError(err, ui.win)
			return
		}
		if uri == nil {
			return // cancelled
		}
		open(uri.Path())
	}, ui.win)
	if dir, err := folderPath(start); err == nil {
		start = dir
	} else {
		start = fallback
	}
	if l, err := listableURI(start); err == nil {
		d.SetLocation(l)
	}
	d.Show()
	d.Resize(fyne.NewSize(800, 560)) // before Show a FileDialog has no content to size
}
