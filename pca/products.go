package pca

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"featurelab/internal/parallel"
)

// Products with the centred, scaled data Yc = Y·inv − 1mᵀ that never form Yc: each
// task centres the cache-sized block of Y it needs, and every output entry sums its
// terms in the same order whatever the number of workers: the products run on
// single-threaded OpenBLAS calls over fixed blocks.

// packRows is the most rows of Y that projectColumns packs at a time, so that a packed
// block keeps a useful width (blockCols) and still fits in L2 when N is large.
const packRows = 512

// projectColumns sets the first r columns of V (P × d) to Ycᵀ W, where wt is the r × N
// matrix Wᵀ. Blocks of rows of V are independent and computed on all workers. Each
// task packs its block of Yc, at most packRows rows at a time, and accumulates the
// chunks in row order.
func projectColumns[T sample](V *mat.Dense, y rows[T], mean []float64, inv float64, wt []float64, r, workers int, c *blockCounter) {
	n, p := y.n, y.p
	vr := V.RawMatrix()
	rc := min(n, packRows)
	bw := blockCols(rc)
	type scratch struct{ pack, vt []float64 }
	scr := make([]scratch, workers)
	parallel.For(workers, blocks(p, bw), func(w, blk int) {
		if scr[w].pack == nil {
			scr[w] = scratch{make([]float64, rc*bw), make([]float64, r*bw)}
		}
		p0 := blk * bw
		b := min(bw, p-p0)
		vt := scr[w].vt[:r*b]
		for i0 := 0; i0 < n; i0 += rc {
			m := min(rc, n-i0)
			pack := scr[w].pack[:m*b]
			for i := range m {
				packRow(pack[i*b:(i+1)*b], y, i0+i, p0, mean, inv)
			}
			beta := 1.0
			if i0 == 0 {
				beta = 0
			}
			// Vᵀ over the block += Wᵀ Yc[:, block], a chunk of rows of Yc at a time.
			openblas.Dgemm(blas.NoTrans, blas.NoTrans, r, b, m, 1, wt[i0:], n, pack, b, beta, vt, b)
		}
		for j := range b {
			row := vr.Data[(p0+j)*vr.Stride : (p0+j)*vr.Stride+r]
			for k := range row {
				row[k] = vt[k*b+j]
			}
		}
		c.add()
	})
}
