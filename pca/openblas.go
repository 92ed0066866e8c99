package pca

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	ob "featurelab/internal/openblas"
	"featurelab/internal/parallel"
)

// openblas is the BLAS the randomized path's products run on (gonum's pure-Go one in the
// builds without OpenBLAS: Windows, the purego tag). OpenBLAS's Sgemm is several times
// faster than gonum's pure-Go one on the PCA's large products, and the PCA of a folder of
// thousands of images is a dozen such products.
//
// OpenBLAS runs single-threaded (internal/openblas): gemm splits the large products into
// fixed chunks of output rows on the caller's workers instead, each chunk one
// single-threaded call, the same calls whatever the number of workers.
var openblas = ob.BLAS

// gemmChunk is the number of output rows of one single-threaded product call.
const gemmChunk = 256

// gemm sets c (m × l, contiguous) = alpha·op(a)·b, where a is the data (row stride lda,
// op(a) = a for blas.NoTrans, aᵀ for blas.Trans) and b is k × l contiguous; all three
// have the element type of the data. Chunks of gemmChunk rows of c run on up to
// workers goroutines.
func gemm[T sample](tA blas.Transpose, m, l, k int, alpha float64, a []T, lda int, b, c []T, workers int) {
	parallel.For(workers, blocks(m, gemmChunk), func(_, blk int) {
		i0 := blk * gemmChunk
		rows := min(gemmChunk, m-i0)
		// Rows i0… of op(a) start at row i0 of a, or at its column i0 when transposed.
		off := i0 * lda
		if tA == blas.Trans {
			off = i0
		}
		cc := c[i0*l : (i0+rows)*l]
		switch a := any(a).(type) {
		case []float32:
			openblas.Sgemm(tA, blas.NoTrans, rows, l, k, float32(alpha), a[off:], lda, any(b).([]float32), l, 0, any(cc).([]float32), l)
		case []float64:
			openblas.Dgemm(tA, blas.NoTrans, rows, l, k, alpha, a[off:], lda, any(b).([]float64), l, 0, any(cc).([]float64), l)
		}
	})
}

// orthonormalize replaces the columns of a (rows ≥ cols) by an orthonormal basis of
// their span. It runs CholeskyQR2 (Fukaya et al. 2014): two rounds of R = chol(aᵀa),
// a ← aR⁻¹, each a symmetric rank-k update and a triangular solve on the BLAS, several
// times faster than gonum's Householder QR on a tall sketch. When the
// sketch is too ill-conditioned for it (a Cholesky factor fails, or the second round's R
// is not the identity to 1e−6, which leaves QᵀQ off the identity by more than about
// 1e−12) Householder QR finishes the job: every round keeps the span, so it starts from
// where the rounds stopped.
func orthonormalize(a *mat.Dense) error {
	_, n := a.Dims()
	raw := a.RawMatrix()
	r := make([]float64, n*n)
	if choleskyRound(raw, r) && choleskyRound(raw, r) && nearIdentity(r, n, 1e-6) {
		return nil
	}
	return householderQR(a)
}

// nearIdentity reports whether the upper triangle of the n × n matrix r is within tol
// of the identity.
func nearIdentity(r []float64, n int, tol float64) bool {
	for i := range n {
		for k := i; k < n; k++ {
			v := r[i*n+k]
			if i == k {
				v--
			}
			if !(math.Abs(v) < tol) {
				return false
			}
		}
	}
	return true
}

// choleskyRound is one round of CholeskyQR: R = chol(aᵀa) into r (upper, row-major),
// then a ← aR⁻¹. It reports false, leaving a as it was, if aᵀa is not numerically
// positive definite.
func choleskyRound(a blas64.General, r []float64) bool {
	n := a.Cols
	clear(r)
	openblas.Dsyrk(blas.Upper, blas.Trans, n, a.Rows, 1, a.Data, a.Stride, 0, r, n)
	if _, ok := lapack64.Potrf(blas64.Symmetric{N: n, Stride: n, Data: r, Uplo: blas.Upper}); !ok {
		return false
	}
	for i := range n {
		// A pivot this small against the largest means aᵀa is singular to working
		// precision, and R⁻¹ would amplify rounding noise into the basis.
		if !(r[i*n+i] > 1e-7*r[0]) || math.IsInf(r[i*n+i], 0) {
			return false
		}
	}
	openblas.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.NonUnit, a.Rows, n, 1, r, n, a.Data, a.Stride)
	return true
}

// householderQR is orthonormalize by Householder QR, LAPACK's Dgeqrf and Dorgqr in
// gonum: the fallback for the rare ill-conditioned sketch.
func householderQR(a *mat.Dense) error {
	g := a.RawMatrix()
	tau := make([]float64, g.Cols)
	work := []float64{0}
	lapack64.Geqrf(g, tau, work, -1)
	lwork := int(work[0])
	lapack64.Orgqr(g, tau, work, -1)
	lwork = max(lwork, int(work[0]), g.Cols)
	work = make([]float64, lwork)
	lapack64.Geqrf(g, tau, work, lwork)
	lapack64.Orgqr(g, tau, work, lwork)
	for _, v := range g.Data {
		if v != v {
			return errors.New("pca: QR in the randomized SVD produced NaN")
		}
	}
	return nil
}
