package imgproc

import (
	"bytes"
	"fmt"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/disintegration/imaging"
)

// TestResizeIsImagings checks Resize against imaging.Resize, byte for byte, with the box
// filter (the load's shrink) and filters with negative lobes (Lanczos, the feature
// grid's; Catmull-Rom) and without (linear): opaque pictures (the C passes),
// translucent ones (imaging's own), noisy, smooth and flat, reduced and enlarged along
// either side or both, the load's 500 × 375 to 320 × 240 and the grid's 320 × 240 to
// 128 × 96 among them.
func TestResizeIsImagings(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cases := []struct{ sw, sh, w, h int }{
		{500, 375, 320, 240}, {375, 500, 240, 320}, {4, 3, 2, 1}, {1, 1, 3, 2}, {7, 5, 7, 2},
		{7, 5, 3, 5}, {10, 10, 13, 3}, {640, 480, 320, 240}, {333, 201, 100, 77}, {2, 9, 1, 9},
		{1000, 750, 320, 240}, {321, 241, 320, 240}, {320, 240, 128, 96}, {222, 323, 88, 128},
	}
	filters := map[string]imaging.ResampleFilter{"box": imaging.Box, "lanczos": imaging.Lanczos,
		"catmullrom": imaging.CatmullRom, "linear": imaging.Linear}
	for _, c := range cases {
		for _, kind := range []string{"noisy", "smooth", "flat", "translucent"} {
			for fname, filter := range filters {
				t.Run(fmt.Sprintf("%dx%d-to-%dx%d-%s-%s", c.sw, c.sh, c.w, c.h, kind, fname), func(t *testing.T) {
					src := image.NewNRGBA(image.Rect(0, 0, c.sw, c.sh))
					for i := range src.Pix {
						x := i / 4 % c.sw
						switch {
						case i%4 == 3 && kind == "translucent" && rng.IntN(5) == 0:
							src.Pix[i] = byte(rng.IntN(2) * 128)
						case i%4 == 3:
							src.Pix[i] = 255
						case kind == "flat":
							src.Pix[i] = 200
						case kind == "smooth":
							src.Pix[i] = byte(x + i/(4*c.sw) + rng.IntN(2))
						default:
							src.Pix[i] = byte(rng.IntN(256))
						}
					}
					got := Resize(src, c.w, c.h, filter)
					want := imaging.Resize(src, c.w, c.h, filter)
					if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
						t.Fatalf("differs from imaging's (%v against %v)", got.Rect, want.Rect)
					}
				})
			}
		}
	}
}
