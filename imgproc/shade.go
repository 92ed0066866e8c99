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
	if len(without) != w*h*c || len(with) != w*h*c || w < 2 || h < 2 || c < 1 {
		return 0, 1, 1
	}
	kept, ok := changedRegion(without, with, w, h, c)
	if !ok {
		return 0, 1, 1
	}
	return shadeIn(without, with, kept, w, h, c)
}

// shadeIn is Shade of the region kept (changedRegion).
func shadeIn(without, with []float64, kept []bool, w, h, c int) (texture, textureGain, meanGain float64) {
	inner := erode(kept, w, h, shadeInset)
	plane := make([]float64, w*h)
	planeWith := make([]float64, w*h)
	var ab, aa, bb, sa, sb float64
	for ch := 0; ch < c; ch++ {
		for p := range plane {
			plane[p], planeWith[p] = without[p*c+ch], with[p*c+ch]
		}
		blurA, blurB := boxBlur(plane, w, h, shadeScale), boxBlur(planeWith, w, h, shadeScale)
		for p, in := range inner {
			if !in {
				continue
			}
			a, b := plane[p]-blurA[p], planeWith[p]-blurB[p]
			ab += a * b
			aa += a * a
			bb += b * b
			sa += plane[p]
			sb += planeWith[p]
		}
	}
	if !(aa > 0 && bb > 0 && sa > 0 && sb > 0) {
		return 0, 1, 1
	}
	return ab / math.Sqrt(aa*bb), math.Sqrt(bb / aa), sb / sa
}

// erode keeps the pixels of in whose every neighbour within r pixels (a square) is in
// too; the picture's border counts as out.
func erode(in []bool, w, h, r int) []bool {
	out := make([]bool, w*h)
	for y := r; y < h-r; y++ {
		for x := r; x < w-r; x++ {
			ok := true
			for yy := y - r; yy <= y+r && ok; yy++ {
				for xx := x - r; xx <= x+r; xx++ {
					if !in[yy*w+xx] {
						ok = false
						break
					}
				}
			}
			out[y*w+x] = ok
		}
	}
	return out
}
