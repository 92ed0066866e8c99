package pca

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"featurelab/internal/hugepage"
)

// fitKrylov computes approximate top d components by randomized block Krylov iteration
// (Musco & Musco 2015, Algorithm 2): from a Gaussian P × b block Ω it builds the
// Krylov space K = [YcΩ, (YcYcᵀ)YcΩ, …, (YcYcᵀ)^q YcΩ] of width m = b(q+1), each new
// block orthogonalised against the ones before it, and takes the components from the
// SVD of the m × P projection QᵀYc (Rayleigh–Ritz). For the same number of passes over
// the data it is far more accurate than subspace iteration on a slowly decaying
// spectrum, and its passes are narrow (b columns), so it needs a fraction of the
// arithmetic: every block Ycᵀ K_j computed to build the next block is also a block of
// (QᵀYc)ᵀ, so the projection costs no pass of its own. The scores are Yc V exactly.
func fitKrylov[T sample](y rows[T], mean []float64, d int, inv float64, seed uint64, workers int, progress func(done, total int), ctx context.Context) (factors, error) {
	n, p := y.n, y.p
	total := totalSquares(y, mean, inv, workers)
	if err := checkTotal(total); err != nil {
		return factors{}, err
	}
	b, q := krylovShape(d, n, p)
	m := b * (q + 1)
	op := newCentredOperator(y, mean, inv, max(b, d), workers)
	c := &blockCounter{report: progress, total: 2*q + 4}

	rng := rand.New(rand.NewPCG(seed, 0x5ca1ab1e))
	omega := mat.NewDense(p, b, nil)
	for i := range omega.RawMatrix().Data {
		omega.RawMatrix().Data[i] = rng.NormFloat64()
	}
	// Q is the orthonormal Krylov basis, block j in columns [jb, (j+1)b). Bt = YcᵀQ,
	// block by block, is the largest matrix of the path (P × m); it is kept in the data's
	// element type, half the size of float64 for a folder's float32 pictures, as a fresh
	// page costs its first touch.
	Q := mat.NewDense(n, m, nil)
	bt := make([]T, p*m)
	hugepage.Advise(Q.RawMatrix().Data)
	hugepage.Advise(bt)
	qBlock := func(j int) *mat.Dense { return Q.Slice(0, n, j*b, (j+1)*b).(*mat.Dense) }
	btBlock := func(j int) block[T] { return block[T]{data: bt[j*b:], rows: p, cols: b, stride: m} }
	op.mul(qBlock(0), omega)
	c.add()
	for j := 0; ; j++ {
		blk := qBlock(j)
		if j > 0 {
			if err := orthogonalizeAgainst(blk, Q.Slice(0, n, 0, j*b).(*mat.Dense)); err != nil {
				return factors{}, err
			}
		} else if err := orthonormalize(blk); err != nil {
			return factors{}, err
		}
		if err := canceled(ctx); err != nil {
			return factors{}, err
		}
		z := btBlock(j)
		op.mulT(z, blk)
		c.add()
		if j == q {
			break
		}
		if err := canceled(ctx); err != nil {
			return factors{}, err
		}
		op.mulBlock(qBlock(j+1), z)
		c.add()
	}

	// Rayleigh–Ritz: the components are the top right singular vectors of B = QᵀYc,
	// V = Bᵀ W Λ^−½ for the eigenpairs (Λ, W) of the small m × m matrix BBᵀ = BtᵀBt. That
	// is a rank-m update and an m × m decomposition, cheaper than a QR of the tall Bt.
	// The division by √λ leaves V orthonormal only to about 1e−16·λ₁/λ_k, so V is
	// re-orthonormalised (P × d, cheap); components the data do not span get an
	// arbitrary orthonormal completion, as on the Gram path.
	G := make([]float64, m*m)
	btChunks(bt, p, m, func(chunk []float64, rows int) {
		openblas.Dsyrk(blas.Upper, blas.Trans, m, rows, 1, chunk, m, 1, G, m)
	})
	for i := range m {
		for k := i + 1; k < m; k++ {
			G[k*m+i] = G[i*m+k]
		}
	}
	W, lambda, err := leftSingularVectors(G, m, d)
	if err != nil {
		return factors{}, err
	}
	r, err := strongComponents(lambda[:d])
	if err != nil {
		return factors{}, err
	}
	for i := range m {
		for k := range r {
			W[i*d+k] /= math.Sqrt(lambda[k])
		}
		clear(W[i*d+r : (i+1)*d])
	}
	V := mat.NewDense(p, d, nil)
	v0 := 0
	btChunks(bt, p, m, func(chunk []float64, rows int) {
		openblas.Dgemm(blas.NoTrans, blas.NoTrans, rows, d, m, 1, chunk, m, W, d, 0, V.RawMatrix().Data[v0*d:], d)
		v0 += rows
	})
	if r > 0 {
		if err := orthonormalize(V.Slice(0, p, 0, r).(*mat.Dense)); err != nil {
			return factors{}, err
		}
	}
	completeBasis(V, r)
	c.add()

	scores := mat.NewDense(n, d, nil)
	op.mul(scores, V)
	c.add()
	variance := make([]float64, d)
	for i := range n {
		for k, v := range scores.RawRowView(i) {
			variance[k] += v * v
		}
	}
	if r, err = strongComponents(variance); err != nil {
		return factors{}, err
	}
	clear(variance[r:])
	for i := range n {
		clear(scores.RawRowView(i)[r:])
	}
	return factors{V: V, scores: scores, variance: variance, total: total}, nil
}

// krylovShape returns the block size b and depth q for d components of an n × p
// matrix: blocks of d/2 columns (at least oversample), six deep, a space of width 3.5d.
// Where that does not fit in min(n, p) it is one block of width min(n, p), whose span
// is the whole range of Yc, so the result is exact. The shape is the smallest that keeps
// the variances close to the exact ones on slowly decaying spectra (TestKrylovAccuracy;
// docs/DESIGN.md, "Measurements behind the code").
func krylovShape(d, n, p int) (b, q int) {
	q = krylovDepth
	b = max(oversample, (d+1)/2)
	if w := min(n, p); b*(q+1) > w {
		return w, 0
	}
	return b, q
}

// orthogonalizeAgainst makes the columns of blk orthonormal and orthogonal to the
// orthonormal columns of Q: block classical Gram–Schmidt run twice (which is as good
// as modified Gram–Schmidt in floating point), then orthonormalize.
func orthogonalizeAgainst(blk, Q *mat.Dense) error {
	n, b := blk.Dims()
	_, k := Q.Dims()
	qr, br := Q.RawMatrix(), blk.RawMatrix()
	coef := make([]float64, k*b)
	for range 2 {
		openblas.Dgemm(blas.Trans, blas.NoTrans, k, b, n, 1, qr.Data, qr.Stride, br.Data, br.Stride, 0, coef, b)
		openblas.Dgemm(blas.NoTrans, blas.NoTrans, n, b, k, -1, qr.Data, qr.Stride, coef, b, 1, br.Data, br.Stride)
	}
	return orthonormalize(blk)
}

// btChunkRows is how many rows of Bt are turned into float64 at a time for the
// Rayleigh–Ritz products, which run in float64: sums of squares over P rows lose too
// much in float32.
const btChunkRows = 1024

// btChunks calls fn, in order, with consecutive chunks of the p × m matrix bt converted
// to float64 (row-major, rows × m).
func btChunks[T sample](bt []T, p, m int, fn func(chunk []float64, rows int)) {
	buf := make([]float64, min(p, btChunkRows)*m)
	for i0 := 0; i0 < p; i0 += btChunkRows {
		rows := min(btChunkRows, p-i0)
		chunk := buf[:rows*m]
		for k, v := range bt[i0*m : (i0+rows)*m] {
			chunk[k] = float64(v)
		}
		fn(chunk, rows)
	}
}
