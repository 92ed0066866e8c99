//go:build purego || windows || !cgo

package imgproc

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestArithmeticJPEGWithoutTurboJPEG: a build without libjpeg-turbo skips an
// arithmetic-coded JPEG, which image/jpeg cannot read, saying so rather than "corrupt",
// and loads the rest.
func TestArithmeticJPEGWithoutTurboJPEG(t *testing.T) {
	arith, err := os.ReadFile(filepath.Join("testdata", "arithmetic.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"arith.jpg": arith, "a.png": encodePNG(t, photo(0)), "b.png": encodePNG(t, photo(1))})
	ds, err := Load(context.Background(), dir, Options{Width: 24, Height: 16})
	if err != nil {
		t.Fatal(err)
	}
	want := []Skip{{"arith.jpg", "arithmetic-coded jpeg: " + errNoTurboJPEG.Error()}}
	if !slices.Equal(ds.Skipped, want) || !slices.Equal(ds.Names, []string{"a.png", "b.png"}) {
		t.Fatalf("names %v, skipped %v; want a.png and b.png, skipped %v", ds.Names, ds.Skipped, want)
	}
}
