package learn

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestFarthestFirstLambda2(t *testing.T) {
	// Points 0, 1, 10 on a line (mean 11/3): the farthest from the mean is 10, then 0
	// (11/3 from the mean, 10 from 10), after which 1 is the farthest from {mean, 10, 0}.
	X := mat.NewDense(3, 1, []float64{0, 1, 10})
	for _, tc := range []struct {
		k    int
		want float64
	}{
		{1, (10 - 11.0/3) * (10 - 11.0/3)},
		{2, (11.0 / 3) * (11.0 / 3)},
		{3, 1},
		{0, 0}, // nothing to propose
		{4, 0},
	} {
		if got := FarthestFirstLambda2(X, tc.k); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("k=%d: λ² = %v, want %v", tc.k, got, tc.want)
		}
	}
}

// TestSqDistBoundedMatchesSqDist: below the bound the two agree to the bit, at or above
// it the bounded one may stop with +Inf.
func TestSqDistBoundedMatchesSqDist(t *testing.T) {
	a := make([]float64, 37)
	b := make([]float64, 37)
	for i := range a {
		a[i], b[i] = math.Sin(float64(i)), math.Cos(float64(3*i))
	}
	full := SqDist(a, b)
	if got := SqDistBounded(a, b, math.Inf(1)); got != full {
		t.Errorf("unbounded: %v, want %v", got, full)
	}
	if got := SqDistBounded(a, b, full/4); !math.IsInf(got, 1) && got != full {
		t.Errorf("bounded below the value: %v, want +Inf or %v", got, full)
	}
}
