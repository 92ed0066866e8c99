package segmenting

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadImage reads single pictures as the folder loader reads its files — by content,
// so an extension-less JPEG and a PGM open — and names the problem otherwise.
func TestLoadImage(t *testing.T) {
	dir := t.TempDir()
	pgm := filepath.Join(dir, "face.pgm")
	if err := os.WriteFile(pgm, []byte("P5\n3 2\n255\n\x00\x40\x80\xc0\xe0\xff"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join("..", "..", "testdata", "images", "bad")
	for _, tc := range []struct {
		path, want string // want: "" for a picture, else the end of the message
	}{
		{pgm, ""},
		{filepath.Join(bad, "good_5"), ""},
		{filepath.Join(bad, "notes.jpg"), bad + string(filepath.Separator) + "notes.jpg: not an image"},
		{filepath.Join(bad, "huge_claim.png"), "pixels exceeds the 50 MP budget"},
		{filepath.Join(dir, "missing.png"), "no such file"},
		{dir, "a folder, not an image"},
	} {
		img, err := LoadImage(tc.path)
		switch {
		case tc.want == "" && (err != nil || img == nil):
			t.Errorf("%s: %v", tc.path, err)
		case tc.want != "" && (err == nil || !strings.HasSuffix(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one ending %q", tc.path, err, tc.want)
		}
	}
}
