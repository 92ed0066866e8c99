package features

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// truthAllocation is Z = [1, t1, t2, t3] for all 8 patterns of three features, repeated,
// and 10 images with the base alone, so every feature is owned by fewer than half of the
// images; with features A and X = ZA + small noise.
func truthAllocation(rng *rand.Rand) (X, Z, A *mat.Dense) {
	const reps, bare, d = 5, 10, 12
	n := 8*reps + bare
	Z = mat.NewDense(n, 4, nil)
	for i := 0; i < n; i++ {
		Z.Set(i, 0, 1)
		for j := 0; j < 3 && i < 8*reps; j++ {
			Z.Set(i, j+1, float64(i>>j&1))
		}
	}
	A = mat.NewDense(4, d, nil)
	for i := range A.RawMatrix().Data {
		A.RawMatrix().Data[i] = rng.NormFloat64()
	}
	X = mat.NewDense(n, d, nil)
	X.Mul(Z, A)
	for i := range X.RawMatrix().Data {
		X.RawMatrix().Data[i] += 0.01 * rng.NormFloat64()
	}
	return X, Z, A
}

func TestWithBase(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X, truth, _ := truthAllocation(rng)
	n, _ := truth.Dims()
	col := func(Z *mat.Dense, j int) []float64 { return mat.Col(nil, j, Z) }
	complement := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = 1 - x
		}
		return out
	}
	build := func(cols ...[]float64) *mat.Dense {
		Z := mat.NewDense(n, len(cols), nil)
		for j, c := range cols {
			Z.SetCol(j, c)
		}
		return Z
	}
	t1, t2, t3, ones := col(truth, 1), col(truth, 2), col(truth, 3), col(truth, 0)
	tests := []struct {
		name string
		Z    *mat.Dense
		ok   bool
	}{
		// No all-ones column: t1 and 1 − t1 together span it; the others are complemented.
		{"split base", build(complement(t2), t1, complement(t1), t3), true},
		{"base last, complements", build(complement(t1), t2, complement(t3), ones), true},
		{"already readable", build(ones, t1, t2, t3), true},
		{"no base in the span", build(t1, t2, t3), false},
	}
	for _, tc := range tests {
		fitZ := tc.Z
		_, k := fitZ.Dims()
		A := mat.NewDense(k, 12, nil)
		if err := aStep(A, fitZ, X, nil); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		before := learn.ResidualSS(X, fitZ, A)
		Z2, A2, ok := WithBase(X, fitZ, A)
		if ok != tc.ok {
			t.Fatalf("%s: ok = %v, want %v", tc.name, ok, tc.ok)
		}
		if after := learn.ResidualSS(X, Z2, A2); math.Abs(after-before) > 1e-9*math.Max(before, 1) {
			t.Errorf("%s: objective %v → %v", tc.name, before, after)
		}
		if !ok {
			if Z2 != fitZ || A2 != A {
				t.Errorf("%s: inputs not returned as they were", tc.name)
			}
			continue
		}
		// Column 0 is the base; the others are the true features, in some order.
		if !equalCols(col(Z2, 0), ones) {
			t.Errorf("%s: column 0 is not owned by every image", tc.name)
		}
		found := 0
		for j := 1; j < k; j++ {
			for _, want := range [][]float64{t1, t2, t3} {
				if equalCols(col(Z2, j), want) {
					found++
				}
			}
		}
		if found != 3 {
			t.Errorf("%s: %d of the 3 true features recovered as they are", tc.name, found)
		}
	}
}

func equalCols(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
