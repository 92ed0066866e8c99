package samplegen

import (
	"fmt"
	"math"
)

// Playing cards of one suit, hearts, ace to ten, with the standard pip layouts: the side
// columns hold two, three or four pips evenly spread between the top and bottom pip rows,
// and the centre column holds the rest (the 7's extra pip halfway between the top and
// middle rows, the 8's two at a quarter and three quarters, the 10's two at a sixth and
// five sixths). Pips in the lower half are drawn upside down, the rank and a small pip
// sit in the top left corner and, turned, in the bottom right. Each rank is drawn
// cardsCopies times with a slightly different ink colour, brightness and ink noise.
//
// The true code of a card is the set of pip positions it uses (17 positions across
// ace to ten), so the features a learner should find are single pips at fixed places.
// Every pip has the same size, the ace's included, so a position looks the same on every
// card; the corner index is the only part that is not a sum of pips.
const (
	cardW       = 120
	cardH       = 168
	cardsCopies = 4
	cardsSeed   = 4
	pipScale    = 19 // heart size parameter, see heart
	pipTop      = 34.0
	pipBottom   = 134.0
	cardMid     = cardH / 2
)

// cardPositions are the pip positions in code order; the names are in cardsFeatures.
var cardPositions = func() [][2]float64 {
	rowAt := func(f float64) float64 { return pipTop + f*(pipBottom-pipTop) }
	var pos [][2]float64
	for _, x := range []float64{34, 86} {
		for _, f := range []float64{0, 1.0 / 3, 0.5, 2.0 / 3, 1} {
			pos = append(pos, [2]float64{x, rowAt(f)})
		}
	}
	for _, f := range []float64{0, 1.0 / 6, 0.25, 0.5, 0.75, 5.0 / 6, 1} {
		pos = append(pos, [2]float64{60, rowAt(f)})
	}
	return pos
}()

var cardsFeatures = []string{
	"left_top", "left_third", "left_middle", "left_two_thirds", "left_bottom",
	"right_top", "right_third", "right_middle", "right_two_thirds", "right_bottom",
	"centre_top", "centre_sixth", "centre_quarter", "centre_middle",
	"centre_three_quarters", "centre_five_sixths", "centre_bottom",
}

// cardLayouts[r-1] lists the pip positions (indices into cardPositions) of rank r.
var cardLayouts = func() [][]int {
	const (
		lTop, lThird, lMid, lTwoThirds, lBottom = 0, 1, 2, 3, 4
		r                                       = 5 // offset of the right column
		cTop, cSixth, cQuarter, cMid            = 10, 11, 12, 13
		cThreeQuarters, cFiveSixths, cBottom    = 14, 15, 16
	)
	four := []int{lTop, lBottom, r + lTop, r + lBottom}
	six := []int{lTop, lMid, lBottom, r + lTop, r + lMid, r + lBottom}
	eight := []int{lTop, lThird, lTwoThirds, lBottom, r + lTop, r + lThird, r + lTwoThirds, r + lBottom}
	with := func(base []int, extra ...int) []int { return append(append([]int(nil), base...), extra...) }
	return [][]int{
		{cMid},
		{cTop, cBottom},
		{cTop, cMid, cBottom},
		four,
		with(four, cMid),
		six,
		with(six, cQuarter),
		with(six, cQuarter, cThreeQuarters),
		with(eight, cMid),
		with(eight, cSixth, cFiveSixths),
	}
}()

var rankNames = []string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10"}

// Cards renders the ace to ten of hearts, four times each: 40 colour 120×168 PNG images
// named 2_of_hearts_1.png … 10_of_hearts_4.png, A_of_hearts_1.png … (natural order).
func Cards() Set {
	rng := newRand(cardsSeed)
	set := Set{Name: "cards", FeatureNames: cardsFeatures}
	// Ranks 2…10 then the ace, so that the images are in natural order of their names.
	for _, rank := range []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 1} {
		code := make([]bool, len(cardPositions))
		for _, p := range cardLayouts[rank-1] {
			code[p] = true
		}
		shapes := cardInk(rankNames[rank-1], cardLayouts[rank-1])
		mask := inkMask(shapes)
		for v := 1; v <= cardsCopies; v++ {
			brightness := 0.97 + 0.05*rng.Float64()
			ink := rgb{0.78 + 0.08*rng.Float64(), 0.06 + 0.05*rng.Float64(), 0.08 + 0.05*rng.Float64()}
			c := drawCard(shapes, ink)
			for i := range c.pix {
				c.pix[i] = c.pix[i]*brightness + mask[i/3]*0.02*rng.NormFloat64()
			}
			set.Images = append(set.Images, Image{
				Name: fmt.Sprintf("%s_of_hearts_%d.png", rankNames[rank-1], v),
				Data: encodePNG(c.rgba()),
				Code: codeString(code),
			})
		}
	}
	return set
}

// cardInk returns the shapes printed in ink on a card: its pips and its corner indices.
func cardInk(rank string, pips []int) []shape {
	var ink []shape
	for _, p := range pips {
		x, y := cardPositions[p][0], cardPositions[p][1]
		ink = append(ink, heart(x, y, pipScale, y > cardMid+0.5))
	}
	for _, turn := range []float64{0, math.Pi} {
		ink = append(ink,
			rotated(text(rank, 13, 7, 13, 1.1), cardW/2, cardH/2, turn),
			rotated(heart(13, 29, 8, false), cardW/2, cardH/2, turn))
	}
	return ink
}

// drawCard draws a white card with rounded corners on a light background and the ink
// shapes on it in the ink colour.
func drawCard(ink []shape, col rgb) *canvas {
	c := newCanvas(cardW, cardH, 3, rgb{0.84, 0.88, 0.85})
	card := roundRect(cardW/2, cardH/2, cardW/2-3, cardH/2-3, 7)
	c.darken(translated(card, 1.5, 2), 0.25, 3)
	c.fill(card, rgb{0.98, 0.98, 0.97}, 1)
	c.fill(subtract(card, roundRect(cardW/2, cardH/2, cardW/2-4, cardH/2-4, 6)), grey(0.62), 1)
	for _, s := range ink {
		c.fill(s, col, 1)
	}
	return c
}

// inkMask is how much ink covers each pixel, in [0, 1].
func inkMask(ink []shape) []float64 {
	m := newCanvas(cardW, cardH, 1, rgb{})
	for _, s := range ink {
		m.fill(s, grey(1), 1)
	}
	return m.pix
}
