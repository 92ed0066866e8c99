package segment

import (
	"slices"
	"testing"
)

// purity is the fraction of pixels whose label's most common truth region is their own.
func purity(labels, truth []int32) float64 {
	major := map[int32]map[int32]int{}
	for n, l := range labels {
		if major[l] == nil {
			major[l] = map[int32]int{}
		}
		major[l][truth[n]]++
	}
	var kept int
	for _, m := range major {
		best := 0
		for _, c := range m {
			best = max(best, c)
		}
		kept += best
	}
	return float64(kept) / float64(len(labels))
}

// TestSuperpixelsFollowRegionBorders: on the synthetic regions (a disc, rectangles), the
// superpixels mix regions less than square cells of the same size do, and they are the
// same for 1 and 4 workers.
func TestSuperpixelsFollowRegionBorders(t *testing.T) {
	const w, h, size = 161, 121, 12
	img, truth := blocksImage(w, h, 5)
	p, err := newPixels(img, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	sp, k, _ := superpixels(p, size, 1)
	if want := ((w + size - 1) / size) * ((h + size - 1) / size); k != want {
		t.Errorf("%d superpixels, want one per %d-pixel square: %d", k, size, want)
	}
	for _, l := range sp {
		if l < 0 || int(l) >= k {
			t.Fatalf("label %d outside [0, %d)", l, k)
		}
	}
	if sp4, _, _ := superpixels(p, size, 4); !slices.Equal(sp, sp4) {
		t.Error("superpixels differ between 1 and 4 workers")
	}
	cells := make([]int32, len(sp))
	for n := range cells {
		cells[n] = int32(n/w/size*((w+size-1)/size) + n%w/size)
	}
	ps, pc := purity(sp, truth), purity(cells, truth)
	if ps < 0.995 || ps <= pc {
		t.Errorf("superpixel purity %.4f, square cells %.4f: want ≥ 0.995 and above the cells'", ps, pc)
	}
}
