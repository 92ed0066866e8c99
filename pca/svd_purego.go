//go:build purego || windows || !cgo

package pca

import (
	"errors"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// leftSingularVectors returns the first d left singular vectors of the m × m row-major
// matrix r, in order of decreasing singular value, as a row-major m × d matrix, and all
// m singular values: gonum's Dgesvd, in the builds without OpenBLAS's LAPACK
// (svd_openblas.go: dgesdd, several times faster). A vector may come out with the
// other sign than dgesdd gives it, as a singular vector may.
func leftSingularVectors(r []float64, m, d int) ([]float64, []float64, error) {
	a := blas64.General{Rows: m, Cols: m, Stride: m, Data: append([]float64(nil), r[:m*m]...)}
	u := blas64.General{Rows: m, Cols: m, Stride: m, Data: make([]float64, m*m)}
	vt := blas64.General{Stride: 1} // not computed
	sv := make([]float64, m)
	work := []float64{0}
	lapack64.Gesvd(lapack.SVDStore, lapack.SVDNone, a, u, vt, sv, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	if !lapack64.Gesvd(lapack.SVDStore, lapack.SVDNone, a, u, vt, sv, work, len(work)) {
		return nil, nil, errors.New("pca: SVD of the Krylov projection did not converge (Dgesvd)")
	}
	out := make([]float64, m*d)
	for i := range m {
		copy(out[i*d:(i+1)*d], u.Data[i*m:i*m+d])
	}
	return out, sv, nil
}
