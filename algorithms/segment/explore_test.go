package segment

import (
	"context"
	"fmt"
	"image"
	"strings"
	"testing"
)

func asciiLabels(l []int32, w, h, step int) string {
	var b strings.Builder
	for y := 0; y < h; y += step {
		for x := 0; x < w; x += step {
			b.WriteByte("0123456789abcdefghijklmnopqrstuvwxyz"[l[y*w+x]%36])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestExplore(t *testing.T) {
	for _, lw := range []float64{1, 2} {
		initLocationWeight = lw
		for _, tc := range []struct {
			name string
			f    func(int, int, uint64) (*image.RGBA, []int32)
		}{{"blocks", blocksImage}, {"band", bandImage}} {
			for _, sz := range [][2]int{{64, 48}, {96, 64}} {
				for _, w := range []float64{0.3, 0.5, 1} {
					s := fmt.Sprintf("lw=%.0f %s %v w=%.1f:", lw, tc.name, sz, w)
					good := 0
					for seed := uint64(1); seed <= 6; seed++ {
						img, truth := tc.f(sz[0], sz[1], seed)
						res, err := Segment(context.Background(), img, Options{Width: w, Seed: seed, Cell: 8})
						if err != nil {
							t.Fatal(err)
						}
						ri := RandIndex(res.Labels, truth)
						if ri >= 0.95 {
							good++
						}
						s += fmt.Sprintf(" %.3f/%d/%d", ri, res.Segments, res.Iterations)
					}
					t.Log(good, s)
				}
			}
		}
	}
}
