package imgproc

import (
	"math"
	"slices"
)

// measureExposureThorough is MeasureExposure the plain way, one picture after another,
// every column and every tile's ratios fully sorted: the answer the fast one must give
// exactly.
func measureExposureThorough(d *Dataset) Exposure {
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
	var scratch []float32
	for i := range n {
		e.Gains[i], e.Measured[i], scratch = gainAgainstThorough(d.Row(i), e.Reference, d.Width, d.Height, d.Channels, scratch)
	}
	return e
}

// gainAgainstThorough is gainAgainst as first written, every tile's ratios sorted.
func gainAgainstThorough(row, ref []float32, w, h, c int, ratios []float32) (float64, bool, []float32) {
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
