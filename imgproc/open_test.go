package imgproc

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	img := image.NewNRGBA(image.Rect(0, 0, 5, 3))
	img.Set(4, 2, color.NRGBA{R: 255, A: 255})
	f, err := os.Create(filepath.Join(dir, "noext"))
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a picture"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	tests := []struct {
		name      string
		maxPixels int64
		wantErr   string
	}{
		{"noext", 0, ""},
		{"notes.txt", 0, "notes.txt: not an image"},
		{"missing.png", 0, "missing.png: unreadable"},
		{"noext", 10, "exceeds the"},
	}
	for _, tc := range tests {
		got, err := Open(fsys, tc.name, tc.maxPixels)
		if tc.wantErr == "" {
			if err != nil || got.Bounds().Dx() != 5 || got.Bounds().Dy() != 3 {
				t.Errorf("Open(%s) = %v, %v; want a 5×3 picture", tc.name, got, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("Open(%s, %d) error %v, want it to contain %q", tc.name, tc.maxPixels, err, tc.wantErr)
		}
	}
}
