package imgproc

import (
	"math"
	"runtime"
	"slices"

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
// that come and go change a few. On the real tabletop (a dark table whose bright objects are most of
// what can be measured), on faces (which move) and on the synthetic samples no picture
// passes, so nothing is divided; on the generated scene folders every picture does.
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
	// (GainAgainst).
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
// 5 % brighter has a gain of about 1.05 whatever is on it.
func (d *Dataset) MeasureExposure() Exposure {
	n, p := len(d.Names), d.Values()
	e := Exposure{Gains: make([]float64, n), Measured: make([]bool, n), Reference: make([]float32, p)}
	if n == 0 || p == 0 {
		return e
	}
	m := min(n, exposureReference)
	column := make([]float32, m)
	for j := 0; j < p; j++ {
		for i := 0; i < m; i++ {
			column[i] = d.Pixels[(i*n/m)*p+j]
		}
		slices.Sort(column)
		e.Reference[j] = column[m/2]
	}
	// Each picture is measured on its own, one scratch buffer per worker: 2 000 pictures
	// of 192×128 took 5.5 s on one core.
	scratch := make([][]float32, runtime.GOMAXPROCS(0))
	parallel.For(len(scratch), n, func(w, i int) {
		e.Gains[i], e.Measured[i], scratch[w] = gainAgainst(d.Row(i), e.Reference, d.Width, d.Height, d.Channels, scratch[w])
	})
	return e
}

// GainAgainst measures one picture's gain (w × h × c samples) against a reference, as
// MeasureExposure does for a folder's: 1 and false when its tiles do not agree.
func GainAgainst(row, reference []float32, w, h, c int) (float64, bool) {
	if len(row) != w*h*c || len(reference) != len(row) {
		return 1, false
	}
	g, ok, _ := gainAgainst(row, reference, w, h, c, nil)
	return g, ok
}

// gainAgainst is GainAgainst with a scratch buffer of ratios to reuse.
func gainAgainst(row, ref []float32, w, h, c int, ratios []float32) (float64, bool, []float32) {
	tiles := make([]float64, 0, exposureGrid*exposureGrid)
	for ty := 0; ty < exposureGrid; ty++ {
		for tx := 0; tx < exposureGrid; tx++ {
			ratios = ratios[:0]
			samples := 0
			for y := ty * h / exposureGrid; y < (ty+1)*h/exposureGrid; y++ {
				for x := tx * w / exposureGrid; x < (tx+1)*w/exposureGrid; x++ {
					for ch := 0; ch < c; ch++ {
						samples++
						if j := (y*w+x)*c + ch; ref[j] >= exposureFloor {
							ratios = append(ratios, row[j]/ref[j])
						}
					}
				}
			}
			// A tile mostly too dark to measure says nothing.
			if len(ratios) == 0 || 2*len(ratios) < samples {
				continue
			}
			slices.Sort(ratios)
			// Nor does one whose samples change by different factors: exposure scales
			// every sample of a tile alike, an object or another colour does not.
			med := ratios[len(ratios)/2]
			if float64(ratios[len(ratios)*3/4]-ratios[len(ratios)/4]) > exposureSpread*float64(med) {
				continue
			}
			tiles = append(tiles, float64(med))
		}
	}
	if len(tiles) < exposureTiles {
		return 1, false, ratios
	}
	sorted := slices.Clone(tiles)
	slices.Sort(sorted)
	g := sorted[len(sorted)/2]
	if !(g > 0) || math.IsInf(g, 0) {
		return 1, false, ratios
	}
	agree := 0
	for _, t := range tiles {
		if math.Abs(t-g) <= exposureAgree*g {
			agree++
		}
	}
	if 2*agree < len(tiles) {
		return 1, false, ratios
	}
	return g, true, ratios
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
