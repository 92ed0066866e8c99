package features

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestEncodeFindsTheBestCode: for K up to EncodeExactK the code Encode gives is the best
// of all 2^K, checked by brute force; rows made from known codes plus a little noise get
// those codes back, at K = 6 exactly and at K = 20 by flips from codes one flip away.
func TestEncodeFindsTheBestCode(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 3, 6, 20} {
		const n, d = 40, 30
		A := mat.NewDense(k, d, nil)
		for j := 0; j < k; j++ {
			for c := 0; c < d; c++ {
				A.Set(j, c, rng.NormFloat64())
			}
		}
		truth := mat.NewDense(n, k, nil)
		X := mat.NewDense(n, d, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				if rng.IntN(2) == 1 {
					truth.Set(i, j, 1)
				}
			}
		}
		X.Mul(truth, A)
		for i := 0; i < n; i++ {
			for c := 0; c < d; c++ {
				X.Set(i, c, X.At(i, c)+0.01*rng.NormFloat64())
			}
		}
		// Above EncodeExactK the search starts from the true codes with one feature of
		// each row flipped, as a learner's search starts from its last codes.
		var start *mat.Dense
		if k > EncodeExactK {
			start = mat.DenseCopyOf(truth)
			for i := 0; i < n; i++ {
				j := rng.IntN(k)
				start.Set(i, j, 1-start.At(i, j))
			}
		}
		Z, err := Encode(X, A, start)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(Z, truth) {
			t.Errorf("K = %d: codes differ from the ones the rows were made of", k)
		}
		if k > 6 {
			continue
		}
		for i := 0; i < n; i++ {
			best := math.Inf(1)
			for code := 0; code < 1<<k; code++ {
				c := 0.0
				for col := 0; col < d; col++ {
					r := X.At(i, col)
					for j := 0; j < k; j++ {
						if code>>j&1 == 1 {
							r -= A.At(j, col)
						}
					}
					c += r * r
				}
				best = math.Min(best, c)
			}
			got := 0.0
			for col := 0; col < d; col++ {
				r := X.At(i, col)
				for j := 0; j < k; j++ {
					r -= Z.At(i, j) * A.At(j, col)
				}
				got += r * r
			}
			if got > best+1e-9 {
				t.Errorf("K = %d, row %d: cost %v, the best code costs %v", k, i, got, best)
			}
		}
	}
	if _, err := Encode(mat.NewDense(2, 3, nil), mat.NewDense(2, 4, nil), nil); err == nil {
		t.Error("features of another width were taken")
	}
}
