package imgproc

import "math"

// How Holds weighs a shadow, chosen on the scene folders of internal/scenes (a shadow
// dims the scene to a third under it): a region counts as shaded when the two pictures'
// fine texture correlates by shadowTexture or more, its gain agrees with the mean's within
// a factor shadowAgree, and the mean changes by a factor shadowGain or more. On those
// folders shadows pass all three; cards, stripes, the real tabletop's objects (bright
// over a dark table whose texture they follow, but with texture gains far from their
// mean gains) and the built-in faces do not (docs/DESIGN.md, "Measurements behind the
// code"). shadowWeight makes a shadow's gain of a third (log 3 ≈ 1.1) outweigh the
// outline's say (Structure), which can read a shadow over texture backwards.
const (
	shadowTexture = 0.5
	shadowAgree   = 1.5
	shadowGain    = 1.25
	shadowWeight  = 2
)

// How Holds weighs light added to a scene (a lamp's glow): the change has next to no
// outline (the outlines' log ratio within log lightOutline of 0), the two pictures' fine
// texture correlates by lightTexture or more and its gain stays within a factor lightFlat
// of 1, while the mean changes by lightGain or more, and the texture's gain lies nearer 1
// than the mean's: the light adds to the scene and leaves its texture as it was. Then the
// brighter picture holds the light, weighted shadowWeight. docs/DESIGN.md has the
// measurements.
const (
	lightOutline = 1.25
	lightTexture = 0.93
	lightFlat    = 1.1
	lightGain    = 1.15
)

// Holds says how much more the picture with holds an object than the picture without —
// two pictures of one scene, without and with a feature: positive when with has it (the
// feature adds it), negative when without has it (the feature removes it), whether the
// object is brighter or darker than what it covers. An object brings an outline where the
// scene without it runs on (Structure: the log of the ratio of the two outlines), and a
// shadow, which keeps the scene's texture under it, brings darkness (Shade: the log of
// how much darker, weighted shadowWeight). Pictures are W×H×C rows of samples, pixel-
// interleaved; identical or ill-sized pictures give 0. To compare one picture with many,
// prepare each once (NewPicture) and use Picture.Holds.
func Holds(without, with []float64, w, h, c int) float64 {
	a, b := NewPicture(without, w, h, c), NewPicture(with, w, h, c)
	if a == nil || b == nil {
		return 0
	}
	return a.Holds(b)
}

// Holds is the package's Holds of p (without) and with, prepared alike; 0 when they are
// not of one size.
func (p *Picture) Holds(with *Picture) float64 {
	if !p.sameSize(with) {
		return 0
	}
	// One region for both measures: finding it is most of either's work.
	kept, ok := changedRegion(p.samples, with.samples, p.w, p.h, p.c)
	if !ok {
		return 0
	}
	in := bounds(kept, p.w, p.h)
	sWithout, sWith := structureIn(p, with, kept, in)
	score, ok := outline(sWithout, sWith)
	if !ok {
		return score
	}
	texture, textureGain, meanGain := shadeIn(p, with, kept, in)
	return shaded(score, texture, textureGain, meanGain)
}

// outline is Holds' say of the outlines alone, the log of their ratio, and whether the
// shade may add to it: not when one picture has no outline at all, and the other holds
// whatever there is.
func outline(sWithout, sWith float64) (float64, bool) {
	if !(sWithout > 0 && sWith > 0) {
		switch {
		case sWith > 0:
			return math.Inf(1), false
		case sWithout > 0:
			return math.Inf(-1), false
		}
		return 0, false
	}
	return math.Log(sWith / sWithout), true
}

// shaded is score, the outline's say, with the shade's (Shade's three figures): where
// the change reads as a shadow (the texture scaled with the light), the darker picture is
// the shaded one, and holds the shadow; where it reads as light added (no outline, the
// texture as it was, the level raised), the brighter picture holds the light.
func shaded(score, texture, textureGain, meanGain float64) float64 {
	if !(texture >= shadowTexture) {
		return score
	}
	tg, mg, apart := math.Abs(math.Log(textureGain)), math.Log(meanGain), math.Abs(math.Log(textureGain/meanGain))
	switch {
	case texture >= lightTexture && math.Abs(score) <= math.Log(lightOutline) && tg <= math.Log(lightFlat) &&
		math.Abs(mg) >= math.Log(lightGain) && tg < apart:
		score += shadowWeight * mg
	case apart <= math.Log(shadowAgree) && math.Abs(mg) >= math.Log(shadowGain):
		score -= shadowWeight * mg
	}
	return score
}
