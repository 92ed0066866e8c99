package pca

import (
	"errors"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// fitSVD computes the top d components from a thin SVD of the centred, scaled data
// Yc = U Σ Vᵀ: the components are the first d columns of V and the scores U Σ. It is
// the path for few pixel values (P < N), where Yc is small.
func fitSVD[T sample](y rows[T], mean []float64, d int, inv float64) (factors, error) {
	yc := centred(y, mean, inv)
	n, p := yc.Dims()
	raw := yc.RawMatrix().Data
	total := floats.Dot(raw, raw)
	if err := checkTotal(total); err != nil {
		return factors{}, err
	}

	var svd mat.SVD
	if !svd.Factorize(yc, mat.SVDThin) {
		return factors{}, errors.New("pca: SVD of the centred data did not converge")
	}
	sigma := svd.Values(nil)
	variance := make([]float64, d)
	for k := range d {
		variance[k] = sigma[k] * sigma[k]
	}
	r, err := strongComponents(variance)
	if err != nil {
		return factors{}, err
	}
	clear(variance[r:])

	var U, V mat.Dense
	svd.UTo(&U)
	svd.VTo(&V)
	scores := mat.NewDense(n, d, nil)
	for i := range n {
		for k := range r {
			scores.Set(i, k, U.At(i, k)*sigma[k])
		}
	}
	return factors{V: mat.DenseCopyOf(V.Slice(0, p, 0, d)), scores: scores, variance: variance, total: total}, nil
}
