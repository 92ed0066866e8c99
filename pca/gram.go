package pca

import (
	"context"
	"errors"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"featurelab/internal/parallel"
)

// gramRows is the number of rows of G one task of gram updates per column block.
const gramRows = 32

// fitGram computes the top d components of an N × P matrix with N ≤ P from the N × N
// Gram matrix G = Yc·Ycᵀ of the centred, scaled data Yc: G = UΛUᵀ gives the left
// singular vectors U and σ² = Λ, so V = Ycᵀ U Σ⁻¹ and the scores are Yc V = U Σ.
// Yc is never stored: both passes over Y centre one cache-sized column block at a time.
func fitGram[T sample](y rows[T], mean []float64, d int, inv float64, workers int, progress func(done, total int), ctx context.Context) (factors, error) {
	n := y.n
	c := &blockCounter{report: progress,
		total: blocks(y.p, blockCols(n)) + blocks(y.p, blockCols(min(n, packRows)))}
	g, err := gram(ctx, y, mean, inv, workers, c)
	if err != nil {
		return factors{}, err
	}
	var total float64
	for i := range n {
		total += g[i*n+i]
	}
	if err := checkTotal(total); err != nil {
		return factors{}, err
	}

	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(n, g), true) {
		return factors{}, errors.New("pca: eigen-decomposition of the Gram matrix did not converge")
	}
	lambda := eig.RawValues() // ascending
	var U mat.Dense
	eig.VectorsTo(&U)

	variance := make([]float64, d)
	for k := range d {
		variance[k] = lambda[n-1-k]
	}
	r, err := strongComponents(variance)
	if err != nil {
		return factors{}, err
	}
	clear(variance[r:])

	// wt holds Wᵀ = (U Σ⁻¹)ᵀ for the r strong components, row-major (r × N).
	scores := mat.NewDense(n, d, nil)
	wt := make([]float64, r*n)
	for k := range r {
		sigma := math.Sqrt(variance[k])
		for i := range n {
			u := U.At(i, n-1-k)
			wt[k*n+i] = u / sigma
			scores.Set(i, k, u*sigma)
		}
	}
	V := mat.NewDense(y.p, d, nil)
	projectColumns(V, y, mean, inv, wt, r, workers, c)
	completeBasis(V, r)
	return factors{V: V, scores: scores, variance: variance, total: total}, nil
}

// gram returns the full n × n matrix G = Yc·Ycᵀ (row-major, upper triangle filled),
// where Yc = Y·inv − 1mᵀ. Column blocks of Yc are packed in turn, the next block while
// rows of G are updated from this one on all workers: with few rows (40 camera photos)
// G's update is two OpenBLAS calls a block, one of them most of it, and packing after
// it left a core idle for both. Each entry of G sums its blocks in column order, each
// block's terms summed by one OpenBLAS call whatever the number of workers, so G is
// deterministic.
func gram[T sample](ctx context.Context, y rows[T], mean []float64, inv float64, workers int, c *blockCounter) ([]float64, error) {
	n, p := y.n, y.p
	bw := blockCols(n)
	g := make([]float64, n*n)
	packs := [2][]float64{make([]float64, n*bw), make([]float64, n*bw)}
	pack := func(p0 int) []float64 {
		b := min(bw, p-p0)
		blk := packs[p0/bw%2][:n*b]
		for i := range n {
			packRow(blk[i*b:(i+1)*b], y, i, p0, mean, inv)
		}
		return blk
	}
	blk := pack(0)
	for p0 := 0; p0 < p; p0 += bw {
		if err := canceled(ctx); err != nil {
			return nil, err
		}
		b := min(bw, p-p0)
		var next []float64
		var packing sync.WaitGroup
		if p0+bw < p {
			packing.Go(func() { next = pack(p0 + bw) })
		}
		// G[i0:i1, i0:n] += Yc[i0:i1, block]·Yc[i0:n, block]ᵀ for fixed chunks of rows,
		// the lower triangle of each chunk's diagonal square included (unread).
		parallel.For(workers, blocks(n, gramRows), func(_, c int) {
			i0 := c * gramRows
			i1 := min(i0+gramRows, n)
			openblas.Dgemm(blas.NoTrans, blas.Trans, i1-i0, n-i0, b, 1, blk[i0*b:], b, blk[i0*b:], b, 1, g[i0*n+i0:], n)
		})
		packing.Wait()
		blk = next
		c.add()
	}
	return g, nil
}

// completeBasis fills columns r… of V (P × d, first r columns orthonormal) with
// orthonormal vectors orthogonal to the first r. They are the components the data do
// not span (zero variance), where Ycᵀu/σ is undefined; any such basis will do. Taking
// them supported on the first d coordinates makes it a d × r problem: the last d−r
// columns of the full QR factor of V[0:d, 0:r] are orthonormal and orthogonal to its
// columns, hence, padded with zeros, to the columns of V.
func completeBasis(V *mat.Dense, r int) {
	_, d := V.Dims()
	if r == d {
		return
	}
	var qr mat.QR
	qr.Factorize(mat.DenseCopyOf(V.Slice(0, d, 0, r)))
	var Q mat.Dense
	qr.QTo(&Q)
	V.Slice(0, d, r, d).(*mat.Dense).Copy(Q.Slice(0, d, r, d))
}
