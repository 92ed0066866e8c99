package pca

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/internal/parallel"
)

// meanBlock is the column-block width of the passes that reduce over rows; a block of
// partial sums stays in L1 while the rows stream past.
const meanBlock = 2048

// columnMeans returns m, the column mean of Y·inv, where inv = 1/sqrt(N−1). Column
// blocks are summed on separate goroutines, each in row order, so the result does not
// depend on the number of workers.
func columnMeans[T sample](y rows[T], inv float64, workers int) []float64 {
	mean := make([]float64, y.p)
	parallel.For(workers, blocks(y.p, meanBlock), func(_, blk int) {
		p0 := blk * meanBlock
		sum := mean[p0:min(p0+meanBlock, y.p)]
		for i := range y.n {
			for k, v := range y.row(i)[p0 : p0+len(sum)] {
				sum[k] += float64(v)
			}
		}
		floats.Scale(inv/float64(y.n), sum)
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
func packBlock[T sample](dst []float64, y rows[T], p0, b int, mean []float64, inv float64) {
	for i := range y.n {
		packRow(dst[i*b:(i+1)*b], y, i, p0, mean, inv)
	}
}

// packRow writes row i of the block that packBlock packs.
func packRow[T sample](dst []float64, y rows[T], i, p0 int, mean []float64, inv float64) {
	src := y.data[i*y.stride+p0 : i*y.stride+p0+len(dst)]
	m := mean[p0 : p0+len(dst)]
	for k, v := range src {
		dst[k] = float64(v)*inv - m[k]
	}
}

// centred returns the centred, scaled copy Y·inv − 1mᵀ.
func centred[T sample](y rows[T], mean []float64, inv float64) *mat.Dense {
	c := mat.NewDense(y.n, y.p, nil)
	packBlock(c.RawMatrix().Data, y, 0, y.p, mean, inv)
	return c
}

// totalSquares returns ‖Y·inv − 1mᵀ‖²_F, the sum of the per-pixel sample variances,
// without forming the centred matrix. Column blocks are reduced separately and their
// sums added in block order, so the result does not depend on the number of workers.
func totalSquares[T sample](y rows[T], mean []float64, inv float64, workers int) float64 {
	nb := blocks(y.p, meanBlock)
	partial := make([]float64, nb)
	scratch := make([][]float64, workers)
	parallel.For(workers, nb, func(w, blk int) {
		p0 := blk * meanBlock
		b := min(meanBlock, y.p-p0)
		if scratch[w] == nil {
			scratch[w] = make([]float64, meanBlock)
		}
		row := scratch[w][:b]
		var s float64
		for i := range y.n {
			packRow(row, y, i, p0, mean, inv)
			s += floats.Dot(row, row)
		}
		partial[blk] = s
	})
	return floats.Sum(partial)
}
