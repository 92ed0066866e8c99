package imgproc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The reading's measures as first written, a pixel at a time with every blur made for
// every pair, kept to check the prepared pictures (Picture) against: the same answers.

func refHolds(without, with []float64, w, h, c int) float64 {
	if len(without) != w*h*c || len(with) != w*h*c || w < 2 || h < 2 || c < 1 {
		return 0
	}
	// One region for both measures: finding it is most of either's work.
	kept, ok := refChangedRegion(without, with, w, h, c)
	if !ok {
		return 0
	}
	sWithout, sWith := refStructureIn(without, with, kept, w, h, c)
	if !(sWithout > 0 && sWith > 0) {
		// One picture with no outline at all: the other holds whatever there is.
		switch {
		case sWith > 0:
			return math.Inf(1)
		case sWithout > 0:
			return math.Inf(-1)
		}
		return 0
	}
	score := math.Log(sWith / sWithout)
	// The measures are checked here, not the rule that weighs them: both read them alike.
	texture, textureGain, meanGain := refShadeIn(without, with, kept, w, h, c)
	return shaded(score, texture, textureGain, meanGain)
}

func refStructureIn(without, with []float64, kept []bool, w, h, c int) (sWithout, sWith float64) {
	// The band: pixels within structureMargin of an edge between kept and not.
	band := make([]bool, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			k := kept[y*w+x]
			for yy := max(y-structureMargin, 0); yy <= min(y+structureMargin, h-1) && !band[y*w+x]; yy++ {
				for xx := max(x-structureMargin, 0); xx <= min(x+structureMargin, w-1); xx++ {
					if kept[yy*w+xx] != k {
						band[y*w+x] = true
						break
					}
				}
			}
		}
	}
	score := func(img []float64) float64 {
		return refEdgeEnergy(img, w, h, c, 0, band) + structureWeight*refEdgeEnergy(img, w, h, c, structureScale, band)
	}
	return score(without), score(with)
}

func refChangedRegion(without, with []float64, w, h, c int) ([]bool, bool) {
	change := make([]float64, w*h)
	for p := range change {
		s := 0.0
		for ch := 0; ch < c; ch++ {
			d := with[p*c+ch] - without[p*c+ch]
			s += d * d
		}
		change[p] = math.Sqrt(s)
	}
	change = refBoxBlur(change, w, h, structureBlur)
	peak := 0.0
	for _, v := range change {
		peak = math.Max(peak, v)
	}
	if peak == 0 || math.IsNaN(peak) {
		return nil, false
	}
	return mainParts(change, w, h, structureShare*peak), true
}

func refEdgeEnergy(img []float64, w, h, c, scale int, where []bool) float64 {
	s := 0.0
	plane := make([]float64, w*h)
	for ch := 0; ch < c; ch++ {
		for p := range plane {
			plane[p] = img[p*c+ch]
		}
		smooth := plane
		if scale > 0 {
			smooth = refBoxBlur(plane, w, h, scale)
		}
		for y := 0; y < h-1; y++ {
			for x := 0; x < w-1; x++ {
				if !where[y*w+x] {
					continue
				}
				p := smooth[y*w+x]
				dx, dy := smooth[y*w+x+1]-p, smooth[(y+1)*w+x]-p
				s += dx*dx + dy*dy
			}
		}
	}
	return s
}

func refBoxBlur(v []float64, w, h, r int) []float64 {
	out := make([]float64, len(v))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			s, n := 0.0, 0
			for yy := max(y-r, 0); yy <= min(y+r, h-1); yy++ {
				for xx := max(x-r, 0); xx <= min(x+r, w-1); xx++ {
					s += v[yy*w+xx]
					n++
				}
			}
			out[y*w+x] = s / float64(n)
		}
	}
	return out
}

func refShadeIn(without, with []float64, kept []bool, w, h, c int) (texture, textureGain, meanGain float64) {
	inner := refErode(kept, w, h, shadeInset)
	plane := make([]float64, w*h)
	planeWith := make([]float64, w*h)
	var ab, aa, bb, sa, sb float64
	for ch := 0; ch < c; ch++ {
		for p := range plane {
			plane[p], planeWith[p] = without[p*c+ch], with[p*c+ch]
		}
		blurA, blurB := refBoxBlur(plane, w, h, shadeScale), refBoxBlur(planeWith, w, h, shadeScale)
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

func refErode(in []bool, w, h, r int) []bool {
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

// TestPreparedPicturesReadAsBefore: Holds on prepared pictures (separable blurs, window
// counts, each picture's blurs made once) gives what the straightforward measures give,
// to rounding, on shadows, cards and soft blobs over textured and flat scenes, odd sizes
// and one channel included.
func TestPreparedPicturesReadAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 60; trial++ {
		w, h, c := 5+rng.IntN(60), 5+rng.IntN(50), 1+2*rng.IntN(2)
		base := make([]float64, w*h*c)
		level, grain := rng.Float64(), 0.3*rng.Float64()
		for i := range base {
			base[i] = level + grain*rng.Float64()
		}
		with := append([]float64(nil), base...)
		x0, y0 := rng.IntN(w), rng.IntN(h)
		x1, y1 := x0+1+rng.IntN(w-x0), y0+1+rng.IntN(h-y0)
		gain, paint := 0.2+rng.Float64(), rng.Float64()
		kind := rng.IntN(3)
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				for ch := 0; ch < c; ch++ {
					i := (y*w+x)*c + ch
					switch kind {
					case 0:
						with[i] *= gain // a shadow
					case 1:
						with[i] = paint // a card
					default:
						with[i] += 0.1 * math.Sin(float64(x+y)) // a pattern
					}
				}
			}
		}
		for _, pair := range [][2][]float64{{base, with}, {with, base}, {base, base}} {
			want := refHolds(pair[0], pair[1], w, h, c)
			got := Holds(pair[0], pair[1], w, h, c)
			if !(got == want || math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))) {
				t.Fatalf("trial %d (%d×%d×%d, kind %d): Holds %v, as first written %v", trial, w, h, c, kind, got, want)
			}
			delta := make([]float64, len(pair[0]))
			for i := range delta {
				delta[i] = pair[1][i] - pair[0][i]
			}
			change := NewChange(delta, w, h, c, nil)
			if got := NewPicture(pair[0], w, h, c).HoldsChange(change); !(got == want || math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))) {
				t.Fatalf("trial %d (%d×%d×%d, kind %d): HoldsChange %v, as first written %v", trial, w, h, c, kind, got, want)
			}
			// Turned over, the change reads the other way, from the picture with it.
			for i := range delta {
				delta[i] = -delta[i]
			}
			change.Negate()
			if got, want := NewPicture(pair[1], w, h, c).HoldsChange(change), refHolds(pair[1], pair[0], w, h, c); !(got == want || math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))) {
				t.Fatalf("trial %d: HoldsChange turned over %v, as first written %v", trial, got, want)
			}
			k, ok := refChangedRegion(pair[0], pair[1], w, h, c)
			if !ok {
				continue
			}
			a, b := NewPicture(pair[0], w, h, c), NewPicture(pair[1], w, h, c)
			t1, g1, m1 := shadeIn(a, b, k, bounds(k, w, h))
			t2, g2, m2 := refShadeIn(pair[0], pair[1], k, w, h, c)
			if !(g2 > 1e-6 && g2 < 1e6) {
				continue // one picture's texture is rounding: no correlation to compare
			}
			for _, d := range [][2]float64{{t1, t2}, {g1, g2}, {m1, m2}} {
				if math.Abs(d[0]-d[1]) > 1e-9*math.Max(1, math.Abs(d[1])) {
					t.Fatalf("trial %d: Shade %v %v %v, as first written %v %v %v", trial, t1, g1, m1, t2, g2, m2)
				}
			}
		}
	}
}

// TestWindowCounts: the counts within a rectangle are those of every window counted one
// pixel at a time, whatever the rectangle, radius and marks.
func TestWindowCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 200; trial++ {
		w, h, radius := 1+rng.IntN(20), 1+rng.IntN(20), rng.IntN(4)
		in := make([]bool, w*h)
		for i := range in {
			in[i] = rng.IntN(3) == 0
		}
		x0, y0 := rng.IntN(w), rng.IntN(h)
		r := rect{x0, y0, x0 + 1 + rng.IntN(w-x0), y0 + 1 + rng.IntN(h-y0)}
		got := windowCounts(in, w, h, radius, r)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				want := int32(0)
				if x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1 {
					for yy := max(y-radius, 0); yy <= min(y+radius, h-1); yy++ {
						for xx := max(x-radius, 0); xx <= min(x+radius, w-1); xx++ {
							if in[yy*w+xx] {
								want++
							}
						}
					}
				}
				if got[y*w+x] != want {
					t.Fatalf("trial %d (%d×%d, radius %d, %+v): count at (%d, %d) %d, want %d", trial, w, h, radius, r, x, y, got[y*w+x], want)
				}
			}
		}
	}
}
