package accuracy

import (
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"featurelab/internal/scenes"
)

// SharedData is the absolute path of the real data set name in ../shared/data beside the
// module, or a skip saying where it lives when it is not there.
func SharedData(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
	data := filepath.Join(filepath.Dir(dir), "shared", "data", name)
	if _, err := os.Stat(data); err != nil {
		t.Skipf("real data set %s not here (%v); it lives in ../shared/data", name, err)
	}
	return data
}

// WriteScene writes the scene folder spec describes into a temporary folder, with its
// truth, and returns the folder's path and what scenes.Write says of it.
func WriteScene(t testing.TB, spec scenes.Spec) (string, scenes.Folder) {
	t.Helper()
	dir := t.TempDir()
	folder, err := scenes.Write(dir, spec)
	if err != nil {
		t.Fatal(err)
	}
	return dir, folder
}

// WriteImage writes img to path as a JPEG (quality 90) when path ends in .jpg or .jpeg,
// else as a PNG, or fails t: the pictures a test lays out as a user's folder.
func WriteImage(t testing.TB, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jpg", ".jpeg":
		err = jpeg.Encode(f, img, &jpeg.Options{Quality: 90})
	default:
		err = png.Encode(f, img)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}
