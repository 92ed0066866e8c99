package segment

import (
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteExamples writes segments and boundaries PNGs of real photos to the directory
// named by KPYP_OUT, for looking at. It is skipped unless KPYP_OUT is set.
func TestWriteExamples(t *testing.T) {
	out := os.Getenv("KPYP_OUT")
	if out == "" {
		t.Skip("set KPYP_OUT to a directory to write example segmentations")
	}
	files := []string{
		filepath.Join(dataDir, "tabletop", "Picture_1.jpg"),
		filepath.Join(dataDir, "cards", "queen_of_hearts.png"),
		filepath.Join(dataDir, "cards", "7_of_diamonds.png"),
		filepath.Join(dataDir, "cards", "red_joker.png"),
		filepath.Join(dataDir, "cards", "back.png"),
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		img, err := loadImage(f)
		if err != nil {
			t.Skipf("real data absent: %v", err)
		}
		for _, opt := range exampleOptions {
			res, err := Segment(context.Background(), img, opt.opt)
			if err != nil {
				t.Fatal(err)
			}
			base := filepath.Join(out, trimExt(filepath.Base(f))+"_"+opt.name)
			writePNG(t, base+"_segments.png", res.ColorImage())
			writePNG(t, base+"_boundaries.png", BoundaryImage(img, res))
			t.Logf("%s %s: %d segments, %d iterations, %.2fs", f, opt.name, res.Segments, res.Iterations, res.Seconds)
		}
	}
}

var exampleOptions = []struct {
	name string
	opt  Options
}{
	{"kpyp", Options{}},
	{"kpyp_texture", Options{Texture: true}},
	{"kmeans", Options{Method: MethodKMeans, K: 6}},
}

func trimExt(s string) string { return s[:len(s)-len(filepath.Ext(s))] }

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
