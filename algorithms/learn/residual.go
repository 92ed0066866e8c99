package learn

import "gonum.org/v1/gonum/mat"

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
