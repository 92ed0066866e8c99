package algorithms

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// errSingular reports a Z whose Gram matrix Z'Z cannot be inverted: a feature owned by no
// row, or two features owned by the same rows. Learners merge or drop such features first.
var errSingular = errors.New("Z'Z is singular")

// aStepWork is the reusable scratch of aStep for one K; it keeps the A-step of a hot
// restart loop free of allocations.
type aStepWork struct {
	k    int
	gram *mat.SymDense
	chol mat.Cholesky
	ztx  *mat.Dense
}

func newAStepWork(k, d int) *aStepWork {
	return &aStepWork{k: k, gram: mat.NewSymDense(k, nil), ztx: mat.NewDense(k, d, nil)}
}

// aStep sets A = (Z'Z)⁻¹Z'X, the least-squares features for a fixed allocation (MAD-Bayes
// Alg. 1, A-step), by a Cholesky solve. Z is N×K with 0/1 entries, X is N×D, A is K×D.
func aStep(A, Z, X *mat.Dense, ws *aStepWork) error {
	_, k := Z.Dims()
	_, d := X.Dims()
	if ws == nil || ws.k != k || ws.ztx.RawMatrix().Cols != d {
		ws = newAStepWork(k, d)
	}
	ws.gram.SymOuterK(1, Z.T())
	if ok := ws.chol.Factorize(ws.gram); !ok {
		return errSingular
	}
	ws.ztx.Mul(Z.T(), X)
	if err := ws.chol.SolveTo(A, ws.ztx); err != nil {
		return fmt.Errorf("A-step: %w", err)
	}
	return nil
}

// residualSS returns ‖X − ZA‖²_F, the K-features objective.
func residualSS(X, Z, A *mat.Dense) float64 {
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
