package segment

import (
	"context"
	"image"
	"path/filepath"
	"testing"

	"golang.org/x/image/draw"

	"featurelab/internal/accuracy"
)

// loadScaled loads a shared data image scaled to w×h, skipping the test when the data
// set is absent.
func loadScaled(t *testing.T, rel string, w, h int) image.Image {
	t.Helper()
	src, err := loadImage(filepath.Join(dataDir, rel))
	if err != nil {
		t.Skipf("real data absent (%v); the real data sets are read from ../shared/data beside the checkout", err)
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

func TestRealPhotos(t *testing.T) {
	accuracy.Check(t)
	for _, tc := range []struct {
		file string
		w, h int
	}{
		{"tabletop/Picture_1.jpg", 80, 60},
		// RGBA with transparent rounded corners: composited on white.
		{"cards/queen_of_hearts.png", 56, 81},
		// A photo of the segmentation benchmark, at its own size: the geodesic
		// distance, location search, merges and splits all run on it.
		{"bsds500-train/images/134008.jpg", 481, 321},
	} {
		img := loadScaled(t, tc.file, tc.w, tc.h)
		res, err := Segment(context.Background(), img, Options{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		t.Logf("%s: %d segments, %d iterations", tc.file, res.Segments, res.Iterations)
		if res.Segments < 2 || res.Segments > DefaultTruncation {
			t.Errorf("%s: %d segments", tc.file, res.Segments)
		}
		assertMonotone(t, res.Bound)
	}
	// The card is mostly white: some segment's mean colour must be near white.
	res, err := Segment(context.Background(), loadScaled(t, "cards/queen_of_hearts.png", 56, 81), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	white := false
	for _, m := range res.Means {
		white = white || (m[0] > 0.9 && m[1] > 0.9 && m[2] > 0.9)
	}
	if !white {
		t.Errorf("no white segment among %v", res.Means)
	}
}
