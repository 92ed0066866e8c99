package segmenting

import (
	"context"
	"image"
	"image/color"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"featurelab/algorithms/segment"
	"featurelab/app/budget"
)

// TestTransparentImageSegmentsAsShown: a transparent picture opened for segmentation is
// shown on white (not black on a dark theme), and segmenting what is shown gives the
// same labels as segmenting the file as it is, since the segmenter reads it on white too.
func TestTransparentImageSegmentsAsShown(t *testing.T) {
	card := image.NewNRGBA(image.Rect(0, 0, 24, 16))
	for y := 4; y < 12; y++ {
		for x := 6; x < 18; x++ {
			card.SetNRGBA(x, y, color.NRGBA{R: 200, G: 30, B: 30, A: 255})
		}
	}
	card.SetNRGBA(2, 2, color.NRGBA{B: 255, A: 128})
	path := filepath.Join(t.TempDir(), "card.png")
	writePNGs(t, map[string]image.Image{path: card})

	shown, err := LoadImage(path)
	if err != nil {
		t.Fatal(err)
	}
	if r, g, b, _ := shown.At(0, 0).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff {
		t.Fatalf("a transparent pixel shows as %#x %#x %#x, want white", r, g, b)
	}
	opt := segment.Options{Method: segment.MethodKPYP, Seed: 1, MaxIter: 20}
	a, err := Segment(context.Background(), shown, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Segment(context.Background(), card, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Labels, b.Labels) {
		t.Errorf("the picture shown segments differently from the file")
	}
}

// TestSegmentKeepsToTheMemoryBudget: a picture whose pixels and labels at full size would
// not fit FEATURELAB_MEMORY is refused from its header, in one line naming the need and
// the budget; within the budget it loads. (A 24 MP JPEG took 471 MB under a 50 MB budget.)
func TestSegmentKeepsToTheMemoryBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wide.png")
	img := image.NewGray(image.Rect(0, 0, 2000, 1500))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	writePNGs(t, map[string]image.Image{path: img})
	t.Setenv(budget.Env, "10M")
	_, err := LoadImage(path)
	if err == nil || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "a 2000×1500 picture needs about 43 MB to be segmented at full size, more than the 10 MB memory budget") {
		t.Fatalf("under 10 MB: %v", err)
	}
	t.Setenv(budget.Env, "100M")
	if got, err := LoadImage(path); err != nil || got.Bounds().Dx() != 2000 {
		t.Fatalf("under 100 MB: %v", err)
	}
}
