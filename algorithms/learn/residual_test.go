package learn

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestResidualSS(t *testing.T) {
	X := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	Z := mat.NewDense(2, 1, []float64{1, 0})
	A := mat.NewDense(1, 2, []float64{1, 1})
	// Row 0: (1,2) − (1,1) = (0,1); row 1 owns nothing: (3,4).
	if got := ResidualSS(X, Z, A); got != 1+9+16 {
		t.Errorf("ResidualSS = %v, want 26", got)
	}
}

func TestLeastSquaresSS(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 7})
	for _, tc := range []struct {
		name string
		Z    *mat.Dense
		want float64
	}{
		{"no features", nil, 1 + 4 + 9 + 16 + 25 + 49},
		// One feature owned by rows 0 and 1: its least-squares A is their mean (2, 3).
		{"one feature", mat.NewDense(3, 1, []float64{1, 1, 0}), 1 + 1 + 1 + 1 + 25 + 49},
		// A third column that is the sum of the first two adds nothing.
		{"dependent column", mat.NewDense(3, 3, []float64{1, 0, 1, 1, 0, 1, 0, 1, 1}), 4},
		{"every row its own", mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}), 0},
	} {
		if got := LeastSquaresSS(X, tc.Z); math.Abs(got-tc.want) > 1e-12*(1+tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestLeastSquaresSSOfANearExactFit: the residual is computed, not ‖X‖² − ‖projection‖²,
// whose rounding (1e-16·‖X‖²) would swamp a fit this close.
func TestLeastSquaresSSOfANearExactFit(t *testing.T) {
	X := mat.NewDense(2, 1, []float64{-2.5e96, -2.5e96 * (1 + 1e-12)})
	Z := mat.NewDense(2, 1, []float64{1, 1})
	want := 2 * math.Pow(2.5e96*0.5e-12, 2) // each row is 1.25e84 from the mean
	if got := LeastSquaresSS(X, Z); math.Abs(got-want) > 1e-3*want {
		t.Errorf("LeastSquaresSS = %v, want %v", got, want)
	}
}
