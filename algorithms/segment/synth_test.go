package segment

import (
	"image"
	"image/color"
	"math/rand/v2"
)

// synthImage paints a w×h image whose pixel (x, y) has the colour of region
// region(x, y), with Gaussian noise of standard deviation sd (in [0, 1] units) per
// channel, and returns it with the true labels.
func synthImage(w, h int, colours [][3]float64, region func(x, y int) int, sd float64, seed uint64) (*image.RGBA, []int32) {
	rng := rand.New(rand.NewPCG(seed, 1))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	truth := make([]int32, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r := region(x, y)
			truth[y*w+x] = int32(r)
			var c [3]uint8
			for i := 0; i < 3; i++ {
				v := colours[r][i] + sd*rng.NormFloat64()
				c[i] = uint8(min(max(v, 0), 1)*255 + 0.5)
			}
			img.SetRGBA(x, y, color.RGBA{c[0], c[1], c[2], 255})
		}
	}
	return img, truth
}

// blocksImage has four coloured regions: a background, a disc, and two rectangles.
func blocksImage(w, h int, seed uint64) (*image.RGBA, []int32) {
	colours := [][3]float64{{0.85, 0.8, 0.7}, {0.8, 0.15, 0.1}, {0.1, 0.3, 0.8}, {0.2, 0.6, 0.2}}
	return synthImage(w, h, colours, func(x, y int) int {
		fx, fy := float64(x)/float64(w), float64(y)/float64(h)
		switch {
		case (fx-0.3)*(fx-0.3)+(fy-0.35)*(fy-0.35) < 0.04:
			return 1
		case fx > 0.6 && fy > 0.15 && fy < 0.55:
			return 2
		case fy > 0.7 && fx > 0.2 && fx < 0.9:
			return 3
		}
		return 0
	}, 0.04, seed)
}

// bandImage has two same-coloured regions at the left and right, each a fraction f of
// the width, separated by a differently coloured vertical band: truth has three labels.
func bandImage(w, h int, f float64, seed uint64) (*image.RGBA, []int32) {
	colours := [][3]float64{{0.8, 0.2, 0.15}, {0.15, 0.3, 0.75}, {0.8, 0.2, 0.15}}
	return synthImage(w, h, colours, func(x, y int) int {
		fx := float64(x) / float64(w)
		switch {
		case fx < f:
			return 0
		case fx < 1-f:
			return 1
		}
		return 2
	}, 0.04, seed)
}

// colourTruth merges the two same-coloured regions of bandImage's truth.
func colourTruth(truth []int32) []int32 {
	out := make([]int32, len(truth))
	for i, l := range truth {
		if l == 2 {
			l = 0
		}
		out[i] = l
	}
	return out
}
