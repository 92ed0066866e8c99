package imgproc

import (
	"math"
	"slices"
)

// exposureReference is the most pictures whose per-sample median is the reference the
// gains are measured against: the median of 101 is as steady as that of thousands, and
// costs a hundredth of it.
const exposureReference = 101

// exposureFloor is the darkest reference sample a gain is measured on: below it a
// sample's ratio is mostly JPEG and sensor noise.
const exposureFloor = 0.05

// ExposureGains measures each picture's exposure: the gain g_n by which its samples are
// the reference's, the reference being the per-sample median of (up to 101, evenly spread)
// pictures. g_n is the median over samples of x_n/ref — robust to the objects that come
// and go, which change a minority of the samples — so a picture taken 5 % brighter has
// g_n ≈ 1.05 whatever is on it. The gains are scaled to a geometric mean of 1.
func (d *Dataset) ExposureGains() []float64 {
	n, p := len(d.Names), d.Values()
	if n == 0 || p == 0 {
		return nil
	}
	ref := make([]float32, p)
	m := min(n, exposureReference)
	column := make([]float32, m)
	for j := 0; j < p; j++ {
		for i := 0; i < m; i++ {
			column[i] = d.Pixels[(i*n/m)*p+j]
		}
		slices.Sort(column)
		ref[j] = column[m/2]
	}
	gains := make([]float64, n)
	ratios := make([]float32, 0, p)
	logSum := 0.0
	for i := range gains {
		ratios = ratios[:0]
		for j, x := range d.Row(i) {
			if ref[j] >= exposureFloor {
				ratios = append(ratios, x/ref[j])
			}
		}
		g := 1.0
		if len(ratios) > 0 {
			slices.Sort(ratios)
			g = float64(ratios[len(ratios)/2])
		}
		if !(g > 0) || math.IsInf(g, 0) {
			g = 1
		}
		gains[i] = g
		logSum += math.Log(g)
	}
	scale := math.Exp(-logSum / float64(n))
	for i := range gains {
		gains[i] *= scale
	}
	return gains
}

// DivideExposure divides every picture's samples by its gain (ExposureGains), so that
// what is left between pictures is what is on them, not how bright each was taken.
func (d *Dataset) DivideExposure(gains []float64) {
	for i, g := range gains {
		inv := float32(1 / g)
		row := d.Row(i)
		for j := range row {
			row[j] *= inv
		}
	}
}
