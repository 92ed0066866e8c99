package segmenting

import (
	"context"
	"image"
	"image/color"
	"path/filepath"
	"slices"
	"testing"

	"featurelab/algorithms/segment"
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
