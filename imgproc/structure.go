package imgproc

import "math"

// How Structure finds where a feature acts and looks at it, chosen on the test bench of
// app/pipeline (TestReadingByContent): the change between the two pictures is smoothed
// over (2·structureBlur+1)² pixels, so that a shadow over texture is one patch and not its
// texture's bright spots; pixels above structureShare of its peak form the region; of the
// region's connected parts, those whose summed change is below structureCore of the
// heaviest part's are left out (the faint echoes a least-squares fit leaves of the other
// features' edges); and the band within structureMargin pixels of the kept parts' edges is
// where the two pictures are compared: at single pixels, and, weighted structureWeight,
// after a (2·structureScale+1)² box blur, which keeps a soft outline and drops fine texture.
const (
	structureBlur   = 1
	structureShare  = 0.25
	structureCore   = 0.5
	structureMargin = 2
	structureScale  = 1
	structureWeight = 3
)

// Structure measures how much each of two pictures of one scene breaks at the outline of
// where they differ: the squared differences between neighbouring pixels, in a band
// along the edge of the main region where |with − without| is large, at two scales
// (see the constants). An object laid on a scene brings an outline — a card's edge, a
// shadow's rim, a ring of glasses — where the scene without it runs on; so the picture with
// the larger figure is the one that holds the object, whether it is brighter or darker
// than what it covers. Pictures are W×H×C rows of samples, pixel-interleaved; two
// identical or ill-sized pictures give 0, 0.
//
// Looking at the whole region instead of its edge band counts texture: a smooth yellow
// handaxe on a dark table with scan lines, or a shadow dimming a starfish's bumps, read as
// removals. Comparing local means across the edge instead reads shadows but misses thin
// things beside strong edges (glasses, a beard at a face's outline) and blocks that touch.
func Structure(without, with []float64, w, h, c int) (sWithout, sWith float64) {
	a, b := NewPicture(without, w, h, c), NewPicture(with, w, h, c)
	if a == nil || b == nil {
		return 0, 0
	}
	kept, ok := changedRegion(without, with, w, h, c)
	if !ok {
		return 0, 0
	}
	return structureIn(a, b, kept, bounds(kept, w, h))
}

// structureIn is Structure of the region kept (changedRegion), which lies in the
// rectangle in.
func structureIn(without, with *Picture, kept []bool, in rect) (sWithout, sWith float64) {
	band, pixels := bandOf(kept, in, without.w, without.h)
	without.ensure(band)
	with.ensure(band)
	for _, q := range pixels {
		sWithout += without.edges[q]
		sWith += with.edges[q]
	}
	return sWithout, sWith
}

// bandOf is where Structure compares two pictures whose region kept (changedRegion)
// lies in the rectangle in: the pixels within structureMargin of an edge between kept
// and not — kept pixels with one not kept within reach, and the others with one kept —
// in row order, and the rectangle that holds them.
func bandOf(kept []bool, in rect, w, h int) (rect, []int32) {
	band := in.grown(structureMargin, w, h)
	near := windowCounts(kept, w, h, structureMargin, band)
	var pixels []int32
	for y := band.y0; y < band.y1; y++ {
		for x := band.x0; x < band.x1; x++ {
			q := y*w + x
			if n := near[q]; kept[q] && n < windowSize(x, y, w, h, structureMargin) || !kept[q] && n > 0 {
				pixels = append(pixels, int32(q))
			}
		}
	}
	return band, pixels
}

// changedRegion is where two pictures differ most: their difference's size at each pixel,
// smoothed, above structureShare of its peak, in the connected parts that hold most of it
// (mainParts). It is false when they do not differ. A nil without is a picture of zeros,
// with then the change itself (NewChange).
func changedRegion(without, with []float64, w, h, c int) ([]bool, bool) {
	change := make([]float64, w*h)
	for p := range change {
		s := 0.0
		for ch := 0; ch < c; ch++ {
			d := with[p*c+ch]
			if without != nil {
				d -= without[p*c+ch]
			}
			s += d * d
		}
		change[p] = math.Sqrt(s)
	}
	change = boxBlur(change, w, h, structureBlur)
	peak := 0.0
	for _, v := range change {
		peak = math.Max(peak, v)
	}
	if peak == 0 || math.IsNaN(peak) {
		return nil, false
	}
	return mainParts(change, w, h, structureShare*peak), true
}

// mainParts marks the connected parts (4-neighbours) of the pixels whose value is above
// threshold, keeping those whose summed value is at least structureCore of the heaviest's.
func mainParts(v []float64, w, h int, threshold float64) []bool {
	part := make([]int, w*h)
	for i := range part {
		part[i] = -1
	}
	var mass []float64
	var stack []int
	for start := range v {
		if part[start] >= 0 || v[start] <= threshold {
			continue
		}
		id := len(mass)
		mass = append(mass, 0)
		part[start] = id
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			mass[id] += v[q]
			x, y := q%w, q/w
			for _, nb := range [4][2]int{{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}} {
				if nb[0] < 0 || nb[1] < 0 || nb[0] >= w || nb[1] >= h {
					continue
				}
				if r := nb[1]*w + nb[0]; part[r] < 0 && v[r] > threshold {
					part[r] = id
					stack = append(stack, r)
				}
			}
		}
	}
	heaviest := 0.0
	for _, m := range mass {
		heaviest = math.Max(heaviest, m)
	}
	out := make([]bool, w*h)
	for i, id := range part {
		out[i] = id >= 0 && mass[id] >= structureCore*heaviest
	}
	return out
}
