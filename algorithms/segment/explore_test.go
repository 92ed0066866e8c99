package segment

import (
	"context"
	"image"
	"testing"
)

func TestExplore(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(int, int, uint64) (*image.RGBA, []int32)
	}{{"blocks", blocksImage}, {"band", bandImage}} {
		img, truth := tc.f(64, 48, 1)
		for _, cell := range []int{1, 2, 4, 8} {
			for _, w := range []float64{0.3, 0.5, 1} {
				res, err := Segment(context.Background(), img, Options{Width: w, Seed: 1, Cell: cell})
				if err != nil {
					t.Fatal(err)
				}
				dec := 0
				for i := 1; i < len(res.Bound); i++ {
					if res.Bound[i] < res.Bound[i-1]-1e-9*abs(res.Bound[i]) {
						dec++
					}
				}
				t.Logf("cell=%d %s w=%.1f: segs %d iters %d RI %.4f VI %.3f bound %.1f→%.1f decreases %d",
					cell, tc.name, w, res.Segments, res.Iterations, RandIndex(res.Labels, truth), VariationOfInformation(res.Labels, truth),
					res.Bound[0], res.Bound[len(res.Bound)-1], dec)
			}
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
