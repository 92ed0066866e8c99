package pca

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestOrthonormalize: CholeskyQR2 on a well-conditioned block, and the Householder
// fallback on blocks it cannot take (a repeated column, a column a millionth of the
// others), all give orthonormal columns whose span contains the original first column.
func TestOrthonormalize(t *testing.T) {
	base := uniform(300, 6, 3)
	repeated := mat.DenseCopyOf(base)
	repeated.SetCol(5, mat.Col(nil, 0, base))
	tiny := mat.DenseCopyOf(base)
	col := mat.Col(nil, 4, base)
	for i := range col {
		col[i] *= 1e-9
	}
	tiny.SetCol(4, col)
	for name, a := range map[string]*mat.Dense{"well-conditioned": base, "repeated column": repeated, "tiny column": tiny} {
		q := mat.DenseCopyOf(a)
		if err := orthonormalize(q); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkOrthonormal(t, name, q, 1e-10)
		// The first column lies in the span: its projection keeps its length.
		first := mat.NewVecDense(300, mat.Col(nil, 0, a))
		var coef, back mat.VecDense
		coef.MulVec(q.T(), first)
		back.MulVec(q, &coef)
		back.SubVec(&back, first)
		if r := mat.Norm(&back, 2) / mat.Norm(first, 2); r > 1e-10 || math.IsNaN(r) {
			t.Fatalf("%s: the first column is %.3g outside the span", name, r)
		}
	}
}
