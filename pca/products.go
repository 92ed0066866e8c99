package pca

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"featurelab/internal/parallel"
)

// Products with the centred, scaled data Yc = Y·inv − 1mᵀ that never form Yc: each
// task centres the cache-sized block of Y it needs, and every output entry sums its
// terms in the same order whatever the number of workers. The inner products run in
// gonum's assembly Dgemv (4 rows at a time, SSE2), which measured about 1.8× a
// register-blocked pure-Go kernel and 2–4× gonum's Dgemm on these shapes.

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
	impl := blas64.Implementation()
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
			// Row k of Vᵀ over the block: Yc[:, block]ᵀ w_k, a chunk of rows at a time.
			for k := range r {
				impl.Dgemv(blas.Trans, m, b, 1, pack, b, wt[k*n+i0:k*n+i0+m], 1, beta, vt[k*b:(k+1)*b], 1)
			}
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

// rowChunk is the fewest rows of Y one projectRows task handles: a block of X is read
// from memory once per chunk and reused from cache for each of its rows.
const rowChunk = 16

// projectRows sets dst (N × l) = Yc X for X (P × l, contiguous rows). Tasks are chunks
// of rows; a task walks the column blocks of Y in order, so each X block is used by all
// its rows while in cache, and each row of dst adds its blocks in the same order
// whatever the chunking.
func projectRows[T sample](dst *mat.Dense, y rows[T], mean []float64, inv float64, X *mat.Dense, workers int) {
	n, p := y.n, y.p
	xr, dr := X.RawMatrix(), dst.RawMatrix()
	l := xr.Cols
	bw := blockCols(l)
	chunk := max(rowChunk, (n+4*workers-1)/(4*workers))
	seg := make([][]float64, workers)
	impl := blas64.Implementation()
	parallel.For(workers, blocks(n, chunk), func(w, c int) {
		if seg[w] == nil {
			seg[w] = make([]float64, bw)
		}
		i0, i1 := c*chunk, min((c+1)*chunk, n)
		for i := i0; i < i1; i++ {
			clear(dr.Data[i*dr.Stride : i*dr.Stride+l])
		}
		for p0 := 0; p0 < p; p0 += bw {
			b := min(bw, p-p0)
			s := seg[w][:b]
			for i := i0; i < i1; i++ {
				packRow(s, y, i, p0, mean, inv)
				// dst[i,:] += X[block,:]ᵀ Yc[i, block]ᵀ
				impl.Dgemv(blas.Trans, b, l, 1, xr.Data[p0*xr.Stride:], xr.Stride, s, 1, 1, dr.Data[i*dr.Stride:i*dr.Stride+l], 1)
			}
		}
	})
}
