//go:build cgo && !windows && !purego

package pca

// #cgo LDFLAGS: -lopenblas
// void dgesdd_(char *jobz, int *m, int *n, double *a, int *lda, double *s, double *u, int *ldu, double *vt, int *ldvt, double *work, int *lwork, int *iwork, int *info);
import "C"

import "fmt"

// leftSingularVectors returns the first d left singular vectors of the m × m row-major
// matrix r, in order of decreasing singular value, as a row-major m × d matrix, and all
// m singular values: LAPACK's divide-and-conquer dgesdd in OpenBLAS, several times
// faster than gonum's Dgesvd at the sizes the PCA asks for. Read column-major, r is
// rᵀ = W Σ Uᵀ, so dgesdd's Vᵀ of rᵀ, read row-major, is U. For a symmetric positive
// semi-definite r these are its eigenvectors and eigenvalues.
func leftSingularVectors(r []float64, m, d int) ([]float64, []float64, error) {
	a := append([]float64(nil), r[:m*m]...) // dgesdd overwrites its input
	sv := make([]float64, m)
	u := make([]float64, m*m)  // W, not used
	vt := make([]float64, m*m) // Vᵀ of rᵀ, column-major: U of r, row-major
	jobz := C.char('S')
	M := C.int(m)
	var info C.int
	iwork := make([]C.int, 8*m)
	lwork := C.int(-1)
	var query C.double
	C.dgesdd_(&jobz, &M, &M, (*C.double)(&a[0]), &M, (*C.double)(&sv[0]), (*C.double)(&u[0]), &M, (*C.double)(&vt[0]), &M, &query, &lwork, &iwork[0], &info)
	lwork = C.int(query)
	work := make([]float64, max(int(lwork), 1))
	C.dgesdd_(&jobz, &M, &M, (*C.double)(&a[0]), &M, (*C.double)(&sv[0]), (*C.double)(&u[0]), &M, (*C.double)(&vt[0]), &M, (*C.double)(&work[0]), &lwork, &iwork[0], &info)
	if info != 0 {
		return nil, nil, fmt.Errorf("pca: SVD of the Krylov projection did not converge (dgesdd info %d)", int(info))
	}
	out := make([]float64, m*d)
	for i := range m {
		copy(out[i*d:(i+1)*d], vt[i*m:i*m+d])
	}
	return out, sv, nil
}
