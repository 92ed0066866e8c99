package segment

import (
	"context"
	"slices"
	"strings"
	"testing"

	"featurelab/algorithms/partition"
	"featurelab/internal/accuracy"
)

func TestScaleLabels(t *testing.T) {
	got := scaleLabels([]int32{0, 1, 2, 3}, 2, 2, 4, 3)
	want := []int32{
		0, 0, 1, 1,
		0, 0, 1, 1,
		2, 2, 3, 3,
	}
	if !slices.Equal(got, want) {
		t.Errorf("scaleLabels = %v, want %v", got, want)
	}
}

// TestLargeImageIsSegmentedAtWorkSize: an image over MaxWorkPixels gets a label for every
// one of its pixels, and its regions are found.
func TestLargeImageIsSegmentedAtWorkSize(t *testing.T) {
	accuracy.Check(t)
	if testing.Short() {
		t.Skip("segments a 1.1-megapixel image")
	}
	const w, h = 1100, 1000
	img, truth := blocksImage(w, h, 2)
	res, err := Segment(context.Background(), img, Options{Method: MethodKMeans, K: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Width != w || res.Height != h || len(res.Labels) != w*h {
		t.Fatalf("%d labels for %d×%d, want %d for %d×%d", len(res.Labels), res.Width, res.Height, w*h, w, h)
	}
	if ri := partition.RandIndex(res.Labels, truth); ri < 0.95 {
		t.Errorf("Rand index %.3f against the blocks", ri)
	}
	if len(res.Means) != res.Segments {
		t.Errorf("%d means for %d segments", len(res.Means), res.Segments)
	}
}

// TestTruncationOverBudgetIsRefused: a Truncation whose responsibilities would not fit
// is refused in one line that says what to lower, before they are allocated. The image
// is fitted at stride 2: what is counted is its 2 500 fitted pixels, not its 10 000.
func TestTruncationOverBudgetIsRefused(t *testing.T) {
	const w, h = 100, 100
	if s := fitStride(w*h, DefaultStride); s != 2 {
		t.Fatalf("a %d×%d image is fitted at stride %d, want 2", w, h, s)
	}
	img, _ := blocksImage(w, h, 1)
	_, err := Segment(context.Background(), img, Options{Truncation: maxLabels})
	if err == nil || !strings.Contains(err.Error(), "lower Truncation") || !strings.Contains(err.Error(), ": 2500 fitted pixels") {
		t.Fatalf("Truncation %d: err %v, want a refusal that counts the 2500 fitted pixels and says to lower it", maxLabels, err)
	}
}
