package pca

import (
	"errors"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// fitRandomized computes approximate top d components with the randomized SVD of
// Halko, Martinsson & Tropp (2011): Algorithm 4.4 (randomized subspace iteration, a
// Gaussian test matrix Ω with l = d+10 columns and two power iterations, every product
// re-orthonormalised by QR) to find an orthonormal Q whose range captures that of Yc,
// then Algorithm 5.1 (SVD of the small matrix B = QᵀYc) for the components. The
// scores are Yc V exactly, so they agree with Model.Transform. Yc = Y·inv − 1mᵀ is
// never formed (see products.go), which keeps memory at the size of Y for the large N
// this path is for.
func fitRandomized(Y *mat.Dense, mean []float64, d int, inv float64, seed uint64, workers int) (factors, error) {
	n, p := Y.Dims()
	total := totalSquares(Y, mean, inv, workers)
	if err := checkTotal(total); err != nil {
		return factors{}, err
	}
	l := min(d+oversample, n, p)
	op := centredOperator{raw: Y.RawMatrix(), mean: mean, inv: inv, workers: workers}

	// The PCG stream is fixed by the seed alone, so the test matrix, and the result, are
	// the same on every run and for every number of workers.
	rng := rand.New(rand.NewPCG(seed, 0x5ca1ab1e))
	omega := mat.NewDense(p, l, nil)
	for i := range omega.RawMatrix().Data {
		omega.RawMatrix().Data[i] = rng.NormFloat64()
	}

	q := mat.NewDense(n, l, nil) // range sketch, N × l
	z := mat.NewDense(p, l, nil) // co-range sketch, P × l
	op.mul(q, omega)
	if err := orthonormalize(q); err != nil {
		return factors{}, err
	}
	for range powerIterations {
		op.mulT(z, q)
		if err := orthonormalize(z); err != nil {
			return factors{}, err
		}
		op.mul(q, z)
		if err := orthonormalize(q); err != nil {
			return factors{}, err
		}
	}
	// z = Ycᵀ Q = Bᵀ; its left singular vectors are B's right ones, the components.
	op.mulT(z, q)
	var svd mat.SVD
	if !svd.Factorize(z, mat.SVDThinU) {
		return factors{}, errors.New("pca: SVD of the randomized projection did not converge")
	}
	var Ub mat.Dense
	svd.UTo(&Ub)
	V := mat.DenseCopyOf(Ub.Slice(0, p, 0, d))

	scores := mat.NewDense(n, d, nil)
	op.mul(scores, V)
	// The variance along each component is that of its scores, exactly.
	variance := make([]float64, d)
	col := make([]float64, n)
	for k := range d {
		mat.Col(col, k, scores)
		variance[k] = floats.Dot(col, col)
	}
	r, err := strongComponents(variance)
	if err != nil {
		return factors{}, err
	}
	clear(variance[r:])
	for i := range n {
		clear(scores.RawRowView(i)[r:])
	}
	return factors{V: V, scores: scores, variance: variance, total: total}, nil
}

// centredOperator multiplies by Yc = Y·inv − 1mᵀ and its transpose without forming it.
type centredOperator struct {
	raw     blas64.General
	mean    []float64
	inv     float64
	workers int
}

// mul sets dst (N × l) = Yc X for X (P × l).
func (op centredOperator) mul(dst, X *mat.Dense) {
	projectRows(dst, op.raw, op.mean, op.inv, X, op.workers)
}

// mulT sets dst (P × l) = Ycᵀ Q for Q (N × l).
func (op centredOperator) mulT(dst, Q *mat.Dense) {
	_, l := Q.Dims()
	projectColumns(dst, op.raw, op.mean, op.inv, mat.DenseCopyOf(Q.T()).RawMatrix().Data, l, op.workers, nil)
}

// orthonormalize replaces the columns of a (rows ≥ cols) by an orthonormal basis of
// their span: the thin Q of a Householder QR factorisation (LAPACK Dgeqrf + Dorgqr).
func orthonormalize(a *mat.Dense) error {
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
