package features

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// ProjectOut leaves each row orthogonal to every row of B, and unchanged what was
// orthogonal already; a repeated row of B adds nothing.
func TestProjectOut(t *testing.T) {
	X := mat.NewDense(2, 3, []float64{1, 2, 3, 0, 0, 5})
	B := mat.NewDense(2, 3, []float64{1, 1, 0, 2, 2, 0})
	P := ProjectOut(X, B)
	for i := 0; i < 2; i++ {
		if d := floats.Dot(P.RawRowView(i), B.RawRowView(0)); math.Abs(d) > 1e-12 {
			t.Errorf("row %d keeps %v along B", i, d)
		}
	}
	if !floats.EqualApprox(P.RawRowView(0), []float64{-0.5, 0.5, 3}, 1e-12) {
		t.Errorf("row 0 = %v, want [-0.5 0.5 3]", P.RawRowView(0))
	}
	if !floats.Equal(P.RawRowView(1), X.RawRowView(1)) {
		t.Errorf("row 1 = %v, orthogonal to B, changed", P.RawRowView(1))
	}
	if ProjectOut(X, nil) != X {
		t.Error("no B: want X itself")
	}
}
