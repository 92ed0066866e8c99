package imgproc

import "math"

// departureGap is how far apart, in pixels, the two samples of a pair straddle the edge
// of a feature's region, and departureBox the radius of the box each sample averages:
// far enough apart to span a soft edge (a shadow fading over a few pixels) and averaged
// enough that the scene's own texture does not drown the outline. Chosen on the scene
// sets of internal/scenes and the real tabletop (TestDepartureOrientsObjects): gap 4 with
// 5×5 boxes orients all 13 objects found; without the box a shadow is missed at every
// gap from 2 to 6.
const (
	departureGap = 4
	departureBox = 2
)

// departureShare is the share of a feature's largest change above which a pixel counts
// as inside its region.
const departureShare = 0.25

// Departure measures how much each of two pictures of one scene breaks off from its
// surroundings where they differ: the region is where |with − without| is above a quarter
// of its largest value, and each picture's departure is the mean squared difference
// between the local means just inside the region's edge and those departureGap pixels
// beyond it. An object laid on a scene leaves an outline — a card, a shadow, a patch of colour,
// bright or dark alike — while the scene without it runs on across the same edge; so the
// picture with the larger departure is the one that holds the object. Pictures are W×H×C
// rows of samples, pixel-interleaved.
func Departure(without, with []float64, w, h, c int) (dWithout, dWith float64) {
	if len(without) != w*h*c || len(with) != w*h*c || w < 1 || h < 1 || c < 1 {
		return 0, 0
	}
	change := make([]float64, w*h)
	peak := 0.0
	for p := range change {
		s := 0.0
		for ch := 0; ch < c; ch++ {
			d := with[p*c+ch] - without[p*c+ch]
			s += d * d
		}
		change[p] = math.Sqrt(s)
		peak = math.Max(peak, change[p])
	}
	if peak == 0 {
		return 0, 0
	}
	inside := func(x, y int) bool { return change[y*w+x] > departureShare*peak }
	pairs := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if !inside(x, y) {
				continue
			}
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				// An edge pixel: its neighbour that way is outside; compare it with the
				// pixel departureGap beyond.
				nx, ny := x+d[0], y+d[1]
				qx, qy := x+departureGap*d[0], y+departureGap*d[1]
				if nx < 0 || ny < 0 || nx >= w || ny >= h || inside(nx, ny) ||
					qx < 0 || qy < 0 || qx >= w || qy >= h || inside(qx, qy) {
					continue
				}
				for ch := 0; ch < c; ch++ {
					a := boxMean(without, w, h, c, x, y, ch) - boxMean(without, w, h, c, qx, qy, ch)
					b := boxMean(with, w, h, c, x, y, ch) - boxMean(with, w, h, c, qx, qy, ch)
					dWithout += a * a
					dWith += b * b
				}
				pairs++
			}
		}
	}
	if pairs == 0 {
		return 0, 0
	}
	return dWithout / float64(pairs), dWith / float64(pairs)
}

// boxMean is the mean of channel ch over the (2r+1)² pixels around (x, y), clamped.
func boxMean(img []float64, w, h, c, x, y, ch int) float64 {
	r := departureBox
	s, n := 0.0, 0
	for yy := max(y-r, 0); yy <= min(y+r, h-1); yy++ {
		for xx := max(x-r, 0); xx <= min(x+r, w-1); xx++ {
			s += img[(yy*w+xx)*c+ch]
			n++
		}
	}
	return s / float64(n)
}
