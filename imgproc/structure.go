package imgproc

import "math"

// structureShare is the share of the largest change between two pictures above which a
// pixel counts as inside the region where they differ; of that region's connected parts,
// those whose own largest change is below structureCore of it are left out, and the rest
// are widened by structureMargin pixels so that the outline at their edge is counted.
const (
	structureShare  = 0.25
	structureMargin = 1
	structureCore   = 0.75
)

// Structure measures how much structure — edges, print, texture — each of two pictures of
// one scene has where they differ: the sum of squared differences between neighbouring
// pixels, over the region where |with − without| is above a quarter of its largest value,
// widened by a pixel for the outline. An object laid on a scene brings its outline and its
// own detail where the scene without it runs on smoothly; so the picture with the larger
// figure is the one that holds the object, whether it is brighter or darker than what it
// covers. Pictures are W×H×C rows of samples, pixel-interleaved; two identical or
// ill-sized pictures give 0, 0.
//
// On the test bench of app/pipeline (TestReadingByContent) it reads the built-in tabletop,
// tetris and faces exactly, the dice's features against the mean image, and all but one
// of the objects K-features finds on the scene sets of internal/scenes: a shadow over a
// starfish's textured arm, where the texture the shadow dims outweighs its soft outline.
// On the real tabletop it reads three objects of four; the handaxe, smooth and yellow on a
// dark table whose scan lines hold more structure, goes to the base. A comparison of local
// means across the region's edge reads those two right but misses thin things beside strong
// edges (glasses, a beard at a face's outline) and blocks that touch.
func Structure(without, with []float64, w, h, c int) (sWithout, sWith float64) {
	if len(without) != w*h*c || len(with) != w*h*c || w < 2 || h < 2 || c < 1 {
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
	if peak == 0 || math.IsNaN(peak) {
		return 0, 0
	}
	// The region: the connected parts of the pixels that change by more than
	// structureShare of the peak whose own largest change is at least structureCore of it
	// — what the feature is, not the faint echoes a least-squares fit leaves of the other
	// features — widened by structureMargin.
	part := make([]int, w*h)
	for i := range part {
		part[i] = -1
	}
	var partPeak []float64
	var stack []int
	for start := range change {
		if part[start] >= 0 || change[start] <= structureShare*peak {
			continue
		}
		id := len(partPeak)
		partPeak = append(partPeak, 0)
		part[start] = id
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			partPeak[id] = math.Max(partPeak[id], change[q])
			x, y := q%w, q/w
			for _, nb := range [4][2]int{{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}} {
				if nb[0] < 0 || nb[1] < 0 || nb[0] >= w || nb[1] >= h {
					continue
				}
				r := nb[1]*w + nb[0]
				if part[r] < 0 && change[r] > structureShare*peak {
					part[r] = id
					stack = append(stack, r)
				}
			}
		}
	}
	in := make([]bool, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if id := part[y*w+x]; id < 0 || partPeak[id] < structureCore*peak {
				continue
			}
			for yy := max(y-structureMargin, 0); yy <= min(y+structureMargin, h-1); yy++ {
				for xx := max(x-structureMargin, 0); xx <= min(x+structureMargin, w-1); xx++ {
					in[yy*w+xx] = true
				}
			}
		}
	}
	energy := func(img []float64) float64 {
		s := 0.0
		for y := 0; y < h-1; y++ {
			for x := 0; x < w-1; x++ {
				if !in[y*w+x] {
					continue
				}
				for ch := 0; ch < c; ch++ {
					p := img[(y*w+x)*c+ch]
					dx, dy := img[(y*w+x+1)*c+ch]-p, img[((y+1)*w+x)*c+ch]-p
					s += dx*dx + dy*dy
				}
			}
		}
		return s
	}
	return energy(without), energy(with)
}
