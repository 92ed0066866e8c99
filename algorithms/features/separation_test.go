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

// TestSeparationEitherWay: for a base and features fitted by least squares, the
// separation either way is the larger of the feature's own and that of its flip (the
// column complemented, A refitted), on sizes where a quantile falls between two samples
// (owners of 6, 16 and 26 at q = 0.1) and where it does not.
func TestSeparationEitherWay(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const d = 12
	for _, n := range []int{12, 31, 40, 57} {
		Z := mat.NewDense(n, 4, nil)
		X := mat.NewDense(n, d, nil)
		pics := mat.NewDense(4, d, nil)
		for j := 0; j < 4; j++ {
			for c := 0; c < d; c++ {
				pics.Set(j, c, rng.NormFloat64())
			}
		}
		for i := 0; i < n; i++ {
			Z.Set(i, 0, 1)
			Z.Set(i, 1, float64(i%2))                   // half
			Z.Set(i, 2, float64(min(1, i%5)))           // four in five
			Z.Set(i, 3, float64(max(0, 1-rng.IntN(3)))) // a third, at random
			for c := 0; c < d; c++ {
				v := 0.3 * rng.NormFloat64()
				for j := 0; j < 4; j++ {
					v += Z.At(i, j) * pics.At(j, c) * (0.7 + 0.6*rng.Float64())
				}
				X.Set(i, c, v)
			}
		}
		A, ok := LeastSquaresA(Z, X)
		if !ok {
			t.Fatal("no fit")
		}
		either := SeparationEitherWay(X, Z, A, 0.1)
		own := SeparationAt(X, Z, A, 0.1)
		for f := 1; f < 4; f++ {
			flipped := mat.DenseCopyOf(Z)
			for i := 0; i < n; i++ {
				flipped.Set(i, f, 1-Z.At(i, f))
			}
			B, ok := LeastSquaresA(flipped, X)
			if !ok {
				t.Fatal("no fit of the flip")
			}
			flip := SeparationAt(X, flipped, B, 0.1)[f]
			if want := math.Max(own[f], flip); math.Abs(either[f]-want) > 1e-9 {
				t.Errorf("n %d, feature %d: either way %.12f, own %.12f, flipped %.12f", n, f, either[f], own[f], flip)
			}
		}
		if !math.IsNaN(either[0]) {
			t.Errorf("n %d: the base's separation either way is %v, want NaN", n, either[0])
		}
	}
}
