package samplegen

import (
	"fmt"
	"image"
)

// The 'dice' pictures of the MAD-Bayes paper (Broderick, Kulis & Jordan 2013, the
// simulated data of tbroderick/bp-means): 14×14 bilevel grey images, each the union of
// the pips present among four 3×3 pip blocks, each present with probability ½, no noise.
// The block positions are those of the reference pictures: top left pixel at (2, 2),
// (9, 2), (2, 9) and (9, 9).
const (
	diceN    = 100
	diceSize = 14
	pipSize  = 3
	diceSeed = 2
)

var diceFeatures = []string{"pip_top_left", "pip_top_right", "pip_bottom_left", "pip_bottom_right"}

// dicePips are the top left corners (x, y) of the pip blocks, in feature order.
var dicePips = [][2]int{{2, 2}, {9, 2}, {2, 9}, {9, 9}}

// Dice renders 100 grey 14×14 PNG pictures named dice_001.png … dice_100.png with pixel
// values exactly 0 or 255.
func Dice() Set {
	rng := newRand(diceSeed)
	set := Set{Name: "dice", FeatureNames: diceFeatures}
	for n, code := range bernoulliCodes(rng, diceN, len(dicePips)) {
		m := image.NewGray(image.Rect(0, 0, diceSize, diceSize))
		for j, on := range code {
			if !on {
				continue
			}
			x0, y0 := dicePips[j][0], dicePips[j][1]
			for y := y0; y < y0+pipSize; y++ {
				for x := x0; x < x0+pipSize; x++ {
					m.Pix[y*m.Stride+x] = 255
				}
			}
		}
		set.Images = append(set.Images, Image{
			Name: fmt.Sprintf("dice_%03d.png", n+1),
			Data: encodePNG(m),
			Code: codeString(code),
		})
	}
	return set
}
