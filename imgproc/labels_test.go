package imgproc

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadLabelMap: 16- and 8-bit grey PNGs read back as their labels; a colour PNG
// and a file that is not a PNG are refused with a line naming the file.
func TestReadLabelMap(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, img image.Image) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		return p
	}
	g16 := image.NewGray16(image.Rect(0, 0, 3, 2))
	g16.SetGray16(2, 1, color.Gray16{Y: 1000})
	g8 := image.NewGray(image.Rect(0, 0, 3, 2))
	g8.SetGray(0, 1, color.Gray{Y: 7})
	for _, tc := range []struct {
		path string
		want []int32
	}{
		{write("a16.png", g16), []int32{0, 0, 0, 0, 0, 1000}},
		{write("a8.png", g8), []int32{0, 0, 0, 7, 0, 0}},
	} {
		m, err := ReadLabelMap(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if m.Width != 3 || m.Height != 2 || !slices.Equal(m.Labels, tc.want) {
			t.Errorf("%s: %d×%d %v, want 3×2 %v", tc.path, m.Width, m.Height, m.Labels, tc.want)
		}
	}
	colour := write("rgb.png", image.NewRGBA(image.Rect(0, 0, 2, 2)))
	text := filepath.Join(dir, "notes.png")
	os.WriteFile(text, []byte("not a png"), 0o644)
	for _, p := range []string{colour, text, filepath.Join(dir, "missing.png")} {
		// The refusal is in the user's words: no Go type name ("*image.NRGBA").
		if _, err := ReadLabelMap(p); err == nil || !strings.Contains(err.Error(), p) || strings.ContainsAny(err.Error(), "\n*") {
			t.Errorf("%s: error %v", p, err)
		}
	}
}
