package views

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
)

// listableURI turns a folder path into the location a folder dialog can start in.
func listableURI(path string) (fyne.ListableURI, error) {
	return storage.ListerForURI(storage.NewFileURI(path))
}
