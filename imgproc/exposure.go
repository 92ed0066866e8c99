package imgproc

import (
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync/atomic"

	"featurelab/internal/parallel"
)

// exposureReference is the most pictures whose per-sample median is the reference the
// gains are measured against: the median of 101 is as steady as that of thousands, and
// costs a hundredth of it.
const exposureReference = 101

// exposureFloor is the darkest reference sample a gain is measured on: below it a
// sample's ratio is mostly JPEG and sensor noise.
const exposureFloor = 0.05

// How a picture's gain is checked, tile by tile: the picture is cut into exposureGrid ×
// exposureGrid tiles, each tile's gain is the median ratio of its samples to the
// reference's, and the picture's gain is the median of its tiles' — kept only when at
// least exposureTiles tiles are bright enough to measure and half of them agree with it
// within exposureAgree; a tile whose samples change by different factors
// (exposureSpread) is not counted. A camera's exposure changes every tile alike; objects
// that come and go change a few, and a folder whose pictures differ mostly by what is on
// them (bright objects over a dark table, faces that move) has no picture pass, so
// nothing is divided.
const (
	exposureGrid  = 8
	exposureTiles = 8
	exposureAgree = 0.02
	// exposureSpread is the widest a tile's ratios may spread (between their quartiles,
	// against their median) for it to count: JPEG at quality 90 spreads a gain's ratios
	// by a few per cent; a patch of another colour (red where the reference is green)
	// spreads them by far more.
	exposureSpread = 0.1
)

// Exposure is how bright each picture of a folder was taken, against the folder's
// typical picture.
type Exposure struct {
	// Gains is, per picture, the factor by which its samples are the reference's (1.05:
	// taken 5 % brighter); 1 for a picture whose gain could not be told from what is on
	// it (Measured).
	Gains []float64
	// Measured is, per picture, whether its tiles agreed on its gain.
	Measured []bool
	// Reference is the per-sample median of (up to exposureReference, evenly spread)
	// pictures: the picture the gains are against, kept to measure new pictures by
	// (GainAgainst); nil when no picture told its gain, as then none is divided out.
	Reference []float32
}

// Count is how many pictures had their gain measured.
func (e Exposure) Count() int {
	n := 0
	for _, m := range e.Measured {
		if m {
			n++
		}
	}
	return n
}

// Range is the smallest and largest measured gain; 1, 1 when none was.
func (e Exposure) Range() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, g := range e.Gains {
		if e.Measured[i] {
			lo, hi = math.Min(lo, g), math.Max(hi, g)
		}
	}
	if lo > hi {
		return 1, 1
	}
	return lo, hi
}

// MeasureExposure measures each picture's exposure gain against the folder's reference
// picture, robustly to the objects that come and go (see exposureGrid): a picture taken
// 5 % brighter has a gain of about 1.05 whatever is on it. progress, when not nil, hears
// of each picture measured, from the workers measuring them.
func (d *Dataset) MeasureExposure(progress func(done, total int)) Exposure {
	n, p := len(d.Names), d.Values()
	e := Exposure{Gains: make([]float64, n), Measured: make([]bool, n), Reference: make([]float32, p)}
	if n == 0 || p == 0 {
		return e
	}
	for i := range e.Gains {
		e.Gains[i] = 1
	}
	// The reference's medians cost more than measuring the pictures, so they are taken
	// only where a picture is measured on them until some picture tells its gain; the
	// rest are taken then, for new pictures to be measured against.
	r := d.newReferencer()
	r.bright(e.Reference)
	tl := newTiling(e.Reference, d.Width, d.Height, d.Channels)
	if len(tl.tiles) < exposureTiles {
		e.Reference = nil // too few tiles bright enough: no picture can tell its gain
		return e
	}
	needed := make([]bool, p)
	for _, t := range tl.tiles {
		for y := t.y0; y < t.y1; y++ {
			for j := (y*d.Width + t.x0) * d.Channels; j < (y*d.Width+t.x1)*d.Channels; j++ {
				needed[j] = e.Reference[j] > 0
			}
		}
	}
	r.medians(e.Reference, needed, true)
	// Each picture is measured on its own, one scratch buffer per worker.
	scratch := make([]tileScratch, r.workers)
	var measured atomic.Int64
	parallel.For(r.workers, n, func(w, i int) {
		e.Gains[i], e.Measured[i] = tl.gain(d.Row(i), e.Reference, &scratch[w])
		if progress != nil {
			progress(int(measured.Add(1)), n)
		}
	})
	if e.Count() == 0 {
		e.Reference = nil
		return e
	}
	r.medians(e.Reference, needed, false)
	return e
}

// referencer takes the per-sample medians of a folder's reference pictures: up to
// exposureReference of them, evenly spread (picture i*n/m of n).
type referencer struct {
	d       *Dataset
	rows    []int // the offset of each reference picture's samples in d.Pixels
	workers int
}

// referenceChunk is how many samples a worker counts at a time (bright).
const referenceChunk = 4096

// exposureBlock is how many samples a worker takes the medians of at a time: that
// stretch of up to exposureReference pictures, transposed, stays in the processor's cache.
const exposureBlock = 256

// newReferencer picks d's reference pictures.
func (d *Dataset) newReferencer() referencer {
	n, p := len(d.Names), d.Values()
	m := min(n, exposureReference)
	r := referencer{d: d, rows: make([]int, m), workers: runtime.GOMAXPROCS(0)}
	for i := range m {
		r.rows[i] = (i * n / m) * p
	}
	return r
}

// bright sets ref to 1 where a sample's median is at exposureFloor or above and 0 where
// it is below: which tiles count, known by counting, before any median is taken.
func (r referencer) bright(ref []float32) {
	p, m := len(ref), len(r.rows)
	chunks := (p + referenceChunk - 1) / referenceChunk
	parallel.For(r.workers, chunks, func(_, ch int) {
		j0 := ch * referenceChunk
		j1 := min(p, j0+referenceChunk)
		var below [referenceChunk]uint8 // m ≤ exposureReference < 256
		for _, off := range r.rows {
			for k, v := range r.d.Pixels[off+j0 : off+j1] {
				// What sorts before the floor: a number under it, or NaN.
				below[k] += b2u8(!(v >= exposureFloor))
			}
		}
		for k := range j1 - j0 {
			// The median, at m/2 in the sorted order, is below the floor when more than
			// m/2 values are.
			ref[j0+k] = float32(b2u8(int(below[k]) <= m/2))
		}
	})
}

// medians sets ref[j] to the median of sample j of the reference pictures — the value a
// full sort of them puts at m/2 — where mask[j] is want.
func (r referencer) medians(ref []float32, mask []bool, want bool) {
	p, m := len(ref), len(r.rows)
	blocks := (p + exposureBlock - 1) / exposureBlock
	bufs := make([][]float32, r.workers)
	parallel.For(r.workers, blocks, func(w, b int) {
		j0 := b * exposureBlock
		j1 := min(p, j0+exposureBlock)
		if !slices.Contains(mask[j0:j1], want) {
			return
		}
		if bufs[w] == nil {
			bufs[w] = make([]float32, exposureBlock*m)
		}
		buf := bufs[w]
		// Transposed, each sample's m values lie together; read in place, one column's
		// values would be a picture apart, often in the same set of the cache, which thrashes.
		for i, off := range r.rows {
			for k, v := range r.d.Pixels[off+j0 : off+j1] {
				buf[k*m+i] = v
			}
		}
		for k := range j1 - j0 {
			if mask[j0+k] == want {
				ref[j0+k] = selectNth(buf[k*m:(k+1)*m], m/2)
			}
		}
	})
}

// b2u8 is 1 for true, 0 for false, without a branch.
func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// GainAgainst measures one picture's gain (w × h × c samples) against a reference, as
// MeasureExposure does for a folder's: 1 and false when its tiles do not agree.
func GainAgainst(row, reference []float32, w, h, c int) (float64, bool) {
	if len(row) != w*h*c || len(reference) != len(row) {
		return 1, false
	}
	return newTiling(reference, w, h, c).gain(row, reference, &tileScratch{})
}

// tiling is where a reference's tiles lie (exposureGrid) and which of them are bright
// enough to measure: which tiles count depends on the reference alone, so it is worked
// out once for all the pictures measured against it.
type tiling struct {
	w, c  int
	tiles []tile // the tiles with at least half their samples at exposureFloor or above
}

// tile is one tile's pixels: columns x0…x1-1 of rows y0…y1-1.
type tile struct{ x0, x1, y0, y1 int }

// tileScratch is what measuring a picture reuses: its tiles' ratios, then their medians.
type tileScratch struct {
	ratios  []float32
	medians []float64
}

// newTiling cuts a w × h × c reference into its tiles and keeps those bright enough.
func newTiling(ref []float32, w, h, c int) tiling {
	tl := tiling{w: w, c: c}
	for ty := range exposureGrid {
		for tx := range exposureGrid {
			t := tile{tx * w / exposureGrid, (tx + 1) * w / exposureGrid, ty * h / exposureGrid, (ty + 1) * h / exposureGrid}
			bright := 0
			for y := t.y0; y < t.y1; y++ {
				for _, v := range ref[(y*w+t.x0)*c : (y*w+t.x1)*c] {
					if v >= exposureFloor {
						bright++
					}
				}
			}
			// A tile mostly too dark to measure says nothing.
			if bright > 0 && 2*bright >= (t.x1-t.x0)*(t.y1-t.y0)*c {
				tl.tiles = append(tl.tiles, t)
			}
		}
	}
	return tl
}

// gain measures one picture against the reference its tiling was cut from: each tile's
// gain is the median ratio of its samples to the reference's, the picture's the median of
// its tiles' (see exposureGrid).
func (tl tiling) gain(row, ref []float32, s *tileScratch) (float64, bool) {
	w, c := tl.w, tl.c
	s.medians = s.medians[:0]
	for ti, t := range tl.tiles {
		// Past this many tiles that could not count, too few are left for a gain.
		if len(s.medians)+len(tl.tiles)-ti < exposureTiles {
			return 1, false
		}
		r := s.ratios[:0]
		for y := t.y0; y < t.y1; y++ {
			lo, hi := (y*w+t.x0)*c, (y*w+t.x1)*c
			refs, vals := ref[lo:hi], row[lo:hi]
			for k, v := range refs {
				if v >= exposureFloor {
					r = append(r, vals[k]/v)
				}
			}
		}
		s.ratios = r
		// A tile whose samples change by different factors does not count: exposure
		// scales every sample of a tile alike, an object or another colour does not. The
		// median and quartiles are the values a full sort puts at n/2, n/4 and 3n/4.
		n := len(r)
		half := n / 2
		med := selectNth(r, half)
		q1, q3 := med, med
		if q := n / 4; q < half {
			q1 = selectNth(r[:half], q)
		}
		if q := n * 3 / 4; q > half {
			q3 = selectNth(r[half+1:], q-half-1)
		}
		if float64(q3-q1) > exposureSpread*float64(med) {
			continue
		}
		s.medians = append(s.medians, float64(med))
	}
	tiles := s.medians
	if len(tiles) < exposureTiles {
		return 1, false
	}
	sorted := slices.Clone(tiles)
	slices.Sort(sorted)
	g := sorted[len(sorted)/2]
	if !(g > 0) || math.IsInf(g, 0) {
		return 1, false
	}
	agree := 0
	for _, t := range tiles {
		if math.Abs(t-g) <= exposureAgree*g {
			agree++
		}
	}
	if 2*agree < len(tiles) {
		return 1, false
	}
	return g, true
}

// selectNth reorders a so that a[k] holds the value slices.Sort would put there, a[:k]
// none after it and a[k+1:] none before it, and returns a[k]: a quickselect, about 3 len(a)
// comparisons where a sort takes len(a)·log len(a). Its partition moves every value
// whichever side it falls (Lomuto's, with no branch on the comparison): ratios near a
// pivot fall either side about evenly, and a branch on them is mispredicted half the
// time, which cost a Hoare partition three times as long.
func selectNth(a []float32, k int) float32 {
	// Pixels and their ratios are numbers: NaN, which would need a slower order, sends
	// its few slices to slices.Sort.
	for _, v := range a {
		if v != v {
			slices.Sort(a)
			return a[k]
		}
	}
	lo, hi := 0, len(a)-1
	// Past 3·log₂ len(a) rounds the pivots have been unlucky: the rest is sorted.
	for rounds := 3 * bits.Len(uint(len(a))); hi-lo > 16; rounds-- {
		if rounds == 0 {
			slices.Sort(a[lo : hi+1])
			return a[k]
		}
		// The median of the first, middle and last is the pivot; it waits at hi.
		mid := lo + (hi-lo)/2
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		p := a[mid]
		a[mid], a[hi] = a[hi], a[mid]
		// a[lo:j] < p ≤ a[j:i].
		j := lo
		for i := lo; i < hi; i++ {
			v := a[i]
			a[i] = a[j]
			a[j] = v
			j += int(b2u8(v < p))
		}
		a[j], a[hi] = a[hi], a[j]
		switch {
		case k < j:
			hi = j - 1
			continue
		case k == j:
			return p
		}
		// A split this uneven is most often many values equal to p (flat patches of a
		// drawn picture), which would each cost a round: they are gathered after p, and k
		// among them is p.
		uneven := 8*(j-lo) < hi-lo
		lo = j + 1
		if uneven {
			e := lo
			for i := lo; i <= hi; i++ {
				v := a[i]
				a[i] = a[e]
				a[e] = v
				e += int(b2u8(v == p))
			}
			if k < e {
				return p
			}
			lo = e
		}
	}
	for i := lo + 1; i <= hi; i++ {
		for j := i; j > lo && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
	return a[k]
}

// DivideExposure divides every picture's samples by its gain, so that what is left
// between pictures is what is on them, not how bright each was taken.
func (d *Dataset) DivideExposure(gains []float64) {
	for i, g := range gains {
		DivideRow(d.Row(i), g)
	}
}

// DivideRow divides one picture's samples by its gain.
func DivideRow(row []float32, gain float64) {
	if gain == 1 || !(gain > 0) {
		return
	}
	inv := float32(1 / gain)
	for j := range row {
		row[j] *= inv
	}
}
