package features

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSeparation: a feature that comes and goes (an object on half the rows) separates
// clearly; one cut out of a change by degrees (an exposure drawn uniformly, coded 1 above
// its median) does not, though both are binary columns of Z fitted by least squares; a
// column owned by every row or by one has none.
func TestSeparation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d = 200, 30
	object, exposure, look := make([]float64, d), make([]float64, d), make([]float64, d)
	for j := range object {
		object[j] = 2 * rng.NormFloat64()
		exposure[j] = 2 * rng.NormFloat64()
		look[j] = rng.NormFloat64()
	}
	X := mat.NewDense(n, d, nil)
	Z := mat.NewDense(n, 5, nil)
	for i := 0; i < n; i++ {
		on := rng.IntN(2) == 1
		gain := rng.Float64()
		Z.Set(i, 0, 1)
		if on {
			Z.Set(i, 1, 1)
		}
		if gain > 0.5 {
			Z.Set(i, 2, 1)
		}
		if i == 0 {
			Z.Set(i, 4, 1)
		}
		for j := 0; j < d; j++ {
			x := look[j] + gain*exposure[j] + 0.1*rng.NormFloat64()
			if on {
				x += object[j]
			}
			X.Set(i, j, x)
		}
	}
	// Column 3 is a copy of the object's, shifted by one row: owned by about half, a
	// code that says little.
	for i := 0; i < n; i++ {
		Z.Set(i, 3, Z.At((i+1)%n, 1))
	}
	A, ok := LeastSquaresA(Z, X)
	if !ok {
		t.Fatal("singular")
	}
	s := Separation(X, Z, A)
	switch {
	case !math.IsNaN(s[0]) || !math.IsNaN(s[4]):
		t.Errorf("the base and a feature of one row: %v, %v; want NaN", s[0], s[4])
	case !(s[1] >= SeparationClear) || s[1] > 1.2:
		t.Errorf("the object separates by %v, want about 1", s[1])
	case !(s[2] < SeparationClear):
		t.Errorf("the exposure cut in two separates by %v, want below %v", s[2], SeparationClear)
	}
	t.Logf("separations %.2f", s)
}
