package segment

import (
	"context"
	"testing"

	"featurelab/algorithms/partition"
)

func TestStrideLabelsEveryPixel(t *testing.T) {
	img, truth := blocksImage(97, 71, 3)
	for _, s := range []int{2, 4} {
		res, err := Segment(context.Background(), img, Options{Seed: 1, Stride: s})
		if err != nil {
			t.Fatal(err)
		}
		assertMonotone(t, res.Bound)
		if len(res.Labels) != 97*71 || res.Width != 97 || res.Height != 71 {
			t.Fatalf("stride %d: %d labels for %d×%d", s, len(res.Labels), res.Width, res.Height)
		}
		if ri := partition.RandIndex(res.Labels, truth); ri < 0.9 {
			t.Errorf("stride %d: Rand index %.3f, %d segments", s, ri, res.Segments)
		}
	}
	if _, err := Segment(context.Background(), img, Options{Stride: -1}); err == nil {
		t.Error("Stride −1 accepted")
	}
}
