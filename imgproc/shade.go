package imgproc

import "math"

// How Shade looks at a region: its texture is each picture minus its (2·shadeScale+1)²
// box blur, read only where the region runs at least shadeInset pixels on every side, so
// that the region's own outline is not counted as texture.
const (
	shadeScale = 2
	shadeInset = 2
)

// Shade compares two pictures of one scene where they differ (the main region, found as
// Structure finds it) as a shadow would change one into the other: a shadow dims the
// scene's light by a factor and keeps what lies under it, so the fine texture of the
// shaded picture follows the other's (texture, their correlation) at the same factor as
// its mean (textureGain and meanGain, with over without). A card, a cup or a patch of
// paint replaces the texture under it instead, and a smooth object on a smooth scene has
// no texture to compare: both give a low correlation or gains that disagree. Pictures are
// W×H×C rows of samples in [0, 1], pixel-interleaved; ill-sized, identical or textureless
// pictures give 0, 1, 1.
func Shade(without, with []float64, w, h, c int) (texture, textureGain, meanGain float64) {
	a, b := NewPicture(without, w, h, c), NewPicture(with, w, h, c)
	if a == nil || b == nil {
		return 0, 1, 1
	}
	kept, ok := changedRegion(without, with, w, h, c)
	if !ok {
		return 0, 1, 1
	}
	return shadeIn(a, b, kept, bounds(kept, w, h))
}

// shadeIn is Shade of the region kept (changedRegion), which lies in the rectangle in:
// over the pixels whose every neighbour within shadeInset is kept, the picture's border
// counting as out.
func shadeIn(without, with *Picture, kept []bool, in rect) (texture, textureGain, meanGain float64) {
	c := without.c
	inner, pixels := innerOf(kept, in, without.w, without.h)
	without.ensure(inner)
	with.ensure(inner)
	var ab, aa, bb, sa, sb float64
	for _, q := range pixels {
		for i := int(q) * c; i < int(q+1)*c; i++ {
			a, b := without.texture[i], with.texture[i]
			ab += a * b
			aa += a * a
			bb += b * b
			sa += without.samples[i]
			sb += with.samples[i]
		}
	}
	return shadeFigures(ab, aa, bb, sa, sb)
}

// innerOf is where Shade reads two pictures whose region kept (changedRegion) lies in
// the rectangle in: the pixels whose every neighbour within shadeInset is kept, the
// picture's border counting as out, in row order, and the rectangle that holds them.
func innerOf(kept []bool, in rect, w, h int) (rect, []int32) {
	inner := rect{max(in.x0, shadeInset), max(in.y0, shadeInset), min(in.x1, w-shadeInset), min(in.y1, h-shadeInset)}
	near := windowCounts(kept, w, h, shadeInset, inner)
	full := int32((2*shadeInset + 1) * (2*shadeInset + 1))
	var pixels []int32
	for y := inner.y0; y < inner.y1; y++ {
		for x := inner.x0; x < inner.x1; x++ {
			if q := y*w + x; near[q] == full {
				pixels = append(pixels, int32(q))
			}
		}
	}
	return inner, pixels
}

// shadeFigures is Shade's three figures from its sums over the region: the two
// textures' products ab, aa and bb, and the two pictures' sums sa and sb; 0, 1, 1 where
// a picture has no texture or no light there.
func shadeFigures(ab, aa, bb, sa, sb float64) (texture, textureGain, meanGain float64) {
	if !(aa > 0 && bb > 0 && sa > 0 && sb > 0) {
		return 0, 1, 1
	}
	return ab / math.Sqrt(aa*bb), math.Sqrt(bb / aa), sb / sa
}
