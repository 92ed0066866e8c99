package segment

import (
	"context"
	"testing"

	"featurelab/algorithms/partition"
)

// TestStrideLabelsEveryPixel: a fit at a stride labels every pixel of the image and
// finds its regions. Each stride is tried on an image about the smallest that is fitted
// at it as asked: 100×100 keeps 2 500 pixels at stride 2, 241×181 keeps 2 726 at stride 4.
func TestStrideLabelsEveryPixel(t *testing.T) {
	for _, c := range []struct{ stride, w, h int }{{2, 100, 100}, {4, 241, 181}} {
		s, w, h := c.stride, c.w, c.h
		img, truth := blocksImage(w, h, 3)
		if got := fitStride(w*h, s); got != s {
			t.Fatalf("fitStride(%d, %d) = %d", w*h, s, got)
		}
		res, err := Segment(context.Background(), img, Options{Seed: 1, Stride: s})
		if err != nil {
			t.Fatal(err)
		}
		assertMonotone(t, res.Bound)
		if len(res.Labels) != w*h || res.Width != w || res.Height != h {
			t.Fatalf("stride %d: %d labels for %d×%d", s, len(res.Labels), res.Width, res.Height)
		}
		if ri := partition.RandIndex(res.Labels, truth); ri < 0.9 {
			t.Errorf("stride %d: Rand index %.3f, %d segments", s, ri, res.Segments)
		} else {
			t.Logf("stride %d on %d×%d: Rand index %.3f, %d segments", s, w, h, ri, res.Segments)
		}
	}
	img, _ := blocksImage(8, 6, 1)
	if _, err := Segment(context.Background(), img, Options{Stride: -1}); err == nil {
		t.Error("Stride −1 accepted")
	}
}

// TestFitStrideKeepsSmallImagesWhole: a small image is fitted at a smaller stride, or
// whole, rather than at a stride that leaves a few hundred pixels.
func TestFitStrideKeepsSmallImagesWhole(t *testing.T) {
	for _, c := range []struct{ n, stride, want int }{
		{481 * 321, 4, 4},
		{48 * 48, 4, 1},
		{97 * 71, 4, 1},
		{200 * 150, 4, 3},
		{200 * 150, 2, 2},
		{100 * 100, 4, 2},
		{0, 4, 1},
		{1 << 20, 1, 1},
	} {
		if got := fitStride(c.n, c.stride); got != c.want {
			t.Errorf("fitStride(%d, %d) = %d, want %d", c.n, c.stride, got, c.want)
		}
	}
}
