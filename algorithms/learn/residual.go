package learn

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// ResidualSS returns ‖X − ZA‖²_F, the K-features objective, recomputed from Z and A.
func ResidualSS(X, Z, A *mat.Dense) float64 {
	n, d := X.Dims()
	_, k := Z.Dims()
	var total float64
	row := make([]float64, d)
	for i := 0; i < n; i++ {
		copy(row, X.RawRowView(i))
		z := Z.RawRowView(i)
		for j := 0; j < k; j++ {
			if z[j] != 0 {
				a := A.RawRowView(j)
				for c := range row {
					row[c] -= a[c]
				}
			}
		}
		for _, v := range row {
			total += v * v
		}
	}
	return total
}

// LeastSquaresSS returns min over A of ‖X − ZA‖²_F: the K-features objective of the
// allocation Z with its least-squares features, whatever the rank of Z. It is the squared
// norm of what is left of X after projecting it onto the column space of Z, taken from
// the thin SVD of Z, so a column that is a sum of others costs nothing. A nil or empty Z
// explains nothing: the result is ‖X‖²_F.
func LeastSquaresSS(X, Z *mat.Dense) float64 {
	total := mat.Norm(X, 2)
	total *= total
	if Z == nil || Z.IsEmpty() {
		return total
	}
	var svd mat.SVD
	if !svd.Factorize(Z, mat.SVDThin) {
		return math.NaN()
	}
	sv := svd.Values(nil)
	n, k := Z.Dims()
	rank := 0
	for _, v := range sv {
		if v > sv[0]*float64(max(n, k))*1e-14 {
			rank++
		}
	}
	if rank == 0 {
		return total
	}
	var U mat.Dense
	svd.UTo(&U)
	Ur := U.Slice(0, n, 0, rank)
	// The residual itself, R = X − UᵣUᵣᵀX, not ‖X‖² − ‖UᵣᵀX‖²: for a near-exact fit that
	// difference is all rounding (1e-16·‖X‖²) and could exceed the fit of another A.
	var P, R mat.Dense
	P.Mul(Ur.T(), X)
	R.Mul(Ur, &P)
	R.Sub(X, &R)
	r := mat.Norm(&R, 2)
	return r * r
}
