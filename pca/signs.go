package pca

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"featurelab/internal/parallel"
)

// signBlock is the number of rows of V one task scans for the sign convention.
const signBlock = 4096

// fixSigns flips components (columns of V, and of the scores with them) so that each
// column's largest-magnitude entry is positive; the first such entry wins a tie. An
// SVD or eigen-decomposition determines each component only up to sign; this makes the
// result the same whichever path, LAPACK implementation or number of workers produced
// it.
func fixSigns(V, scores *mat.Dense, workers int) {
	vr := V.RawMatrix()
	p, d := vr.Rows, vr.Cols
	nb := blocks(p, signBlock)
	// best[blk*d+k] is the entry of column k with the largest magnitude in block blk.
	best := make([]float64, nb*d)
	parallel.For(workers, nb, func(_, blk int) {
		b := best[blk*d : (blk+1)*d]
		mag := make([]float64, d) // |b[k]|, kept apart to halve the work in the loop
		for i := blk * signBlock; i < min((blk+1)*signBlock, p); i++ {
			for k, v := range vr.Data[i*vr.Stride : i*vr.Stride+d] {
				if a := math.Abs(v); a > mag[k] {
					mag[k], b[k] = a, v
				}
			}
		}
	})
	flip := make([]bool, d)
	flipped := false
	for k := range d {
		var m float64
		for blk := range nb {
			if v := best[blk*d+k]; math.Abs(v) > math.Abs(m) {
				m = v
			}
		}
		flip[k] = m < 0
		flipped = flipped || flip[k]
	}
	if !flipped {
		return
	}
	parallel.For(workers, nb, func(_, blk int) {
		for i := blk * signBlock; i < min((blk+1)*signBlock, p); i++ {
			negate(vr.Data[i*vr.Stride:i*vr.Stride+d], flip)
		}
	})
	sr := scores.RawMatrix()
	for i := range sr.Rows {
		negate(sr.Data[i*sr.Stride:i*sr.Stride+d], flip)
	}
}

// negate flips the sign of row[k] wherever flip[k].
func negate(row []float64, flip []bool) {
	for k, f := range flip {
		if f {
			row[k] = -row[k]
		}
	}
}
