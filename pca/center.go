package pca

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// meanBlock is the column-block width of the passes that reduce over rows; a block of
// partial sums stays in L1 while the rows stream past.
const meanBlock = 2048

// columnMeans returns m, the column mean of Y·inv, where inv = 1/sqrt(N−1). Column
// blocks are summed on separate goroutines, each in row order, so the result does not
// depend on the number of workers.
func columnMeans(Y *mat.Dense, inv float64, workers int) []float64 {
	raw := Y.RawMatrix()
	n, p := raw.Rows, raw.Cols
	mean := make([]float64, p)
	forEach(workers, blocks(p, meanBlock), func(_, blk int) {
		p0 := blk * meanBlock
		sum := mean[p0:min(p0+meanBlock, p)]
		for i := range n {
			row := raw.Data[i*raw.Stride+p0:]
			floats.Add(sum, row[:len(sum)])
		}
		floats.Scale(inv/float64(n), sum)
	})
	return mean
}

// blockCols is the column-block width for passes over n rows: an n × b block of
// float64 takes about 512 KiB, half an L2 cache, so a packed block stays there while
// it is multiplied.
func blockCols(n int) int {
	b := (64 << 10) / n
	b &^= 7
	return min(max(b, 64), 4096)
}

// packBlock writes the centred, scaled columns [p0, p0+b) of Y into dst as a
// contiguous n × b matrix: dst[i*b+k] = Y[i, p0+k]·inv − mean[p0+k], the reference's
// Y/sqrt(N−1) − m.
func packBlock(dst []float64, raw blas64.General, p0, b int, mean []float64, inv float64) {
	for i := range raw.Rows {
		packRow(dst[i*b:(i+1)*b], raw, i, p0, mean, inv)
	}
}

// packRow writes row i of the block that packBlock packs.
func packRow(dst []float64, raw blas64.General, i, p0 int, mean []float64, inv float64) {
	src := raw.Data[i*raw.Stride+p0 : i*raw.Stride+p0+len(dst)]
	m := mean[p0 : p0+len(dst)]
	for k, v := range src {
		dst[k] = v*inv - m[k]
	}
}

// centred returns the centred, scaled copy Y·inv − 1mᵀ.
func centred(Y *mat.Dense, mean []float64, inv float64) *mat.Dense {
	raw := Y.RawMatrix()
	c := mat.NewDense(raw.Rows, raw.Cols, nil)
	packBlock(c.RawMatrix().Data, raw, 0, raw.Cols, mean, inv)
	return c
}

// totalSquares returns ‖Y·inv − 1mᵀ‖²_F, the sum of the per-pixel sample variances,
// without forming the centred matrix. Column blocks are reduced separately and their
// sums added in block order, so the result does not depend on the number of workers.
func totalSquares(Y *mat.Dense, mean []float64, inv float64, workers int) float64 {
	raw := Y.RawMatrix()
	nb := blocks(raw.Cols, meanBlock)
	partial := make([]float64, nb)
	scratch := make([][]float64, workers)
	forEach(workers, nb, func(w, blk int) {
		p0 := blk * meanBlock
		b := min(meanBlock, raw.Cols-p0)
		if scratch[w] == nil {
			scratch[w] = make([]float64, meanBlock)
		}
		row := scratch[w][:b]
		var s float64
		for i := range raw.Rows {
			packRow(row, raw, i, p0, mean, inv)
			s += floats.Dot(row, row)
		}
		partial[blk] = s
	})
	return floats.Sum(partial)
}
