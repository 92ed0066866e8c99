package features

import (
	"fmt"
	"math"
	"math/bits"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// EncodeExactK is the largest K for which Encode compares every code of a row; above it
// it improves a row's code by single flips from its start.
const EncodeExactK = 14

// Encode finds, for every row x of X, the binary code z that best explains it with the
// features A held fixed: the one minimising ‖x − zA‖². For K ≤ EncodeExactK it compares
// all 2^K codes (in Gray-code order, each step one flip costing O(K) through the Gram
// matrix AAᵀ and b = Ax); above, it starts from the row of start (all zeros when start is
// nil) and flips single features while a flip lowers the cost, as the learners' searches
// do. Ties keep the code met first. X is N×D, A K×D; the result is N×K of 0/1.
func Encode(X, A, start *mat.Dense) (*mat.Dense, error) {
	n, d := X.Dims()
	k, da := A.Dims()
	if da != d {
		return nil, fmt.Errorf("encode: the images have %d values, the features %d", d, da)
	}
	if k < 1 || k > maxFeatures {
		return nil, fmt.Errorf("encode: K = %d, want 1…%d", k, maxFeatures)
	}
	if start != nil {
		if r, c := start.Dims(); r != n || c != k {
			return nil, fmt.Errorf("encode: the starting codes are %d×%d, want %d×%d", r, c, n, k)
		}
	}
	var G mat.Dense
	G.Mul(A, A.T())
	Z := mat.NewDense(n, k, nil)
	b := make([]float64, k)
	s := make([]float64, k) // Gz for the current code
	z := make([]bool, k)
	for i := 0; i < n; i++ {
		x := X.RawRowView(i)
		for j := range b {
			b[j] = floats.Dot(A.RawRowView(j), x)
		}
		for j := range z {
			z[j] = start != nil && start.At(i, j) != 0
			s[j] = 0
		}
		cost := 0.0 // ‖x − zA‖² − ‖x‖² = zᵀGz − 2z·b
		for j := range z {
			if z[j] {
				cost += G.At(j, j) - 2*b[j] + 2*s[j]
				floats.Add(s, G.RawRowView(j)) // G is symmetric: its row j is its column j
			}
		}
		// flipGain is how much flipping feature j changes the cost.
		flipGain := func(j int) float64 {
			gjj := G.At(j, j)
			if z[j] {
				return -(gjj - 2*b[j] + 2*(s[j]-gjj))
			}
			return gjj - 2*b[j] + 2*s[j]
		}
		flip := func(j int, gain float64) {
			sign := 1.0
			if z[j] {
				sign = -1
			}
			z[j] = !z[j]
			floats.AddScaled(s, sign, G.RawRowView(j))
			cost += gain
		}
		if k <= EncodeExactK {
			best, bestCode := cost, append([]bool(nil), z...)
			for step := uint64(1); step < 1<<k; step++ {
				j := bits.TrailingZeros64(step)
				flip(j, flipGain(j))
				if cost < best {
					best = cost
					copy(bestCode, z)
				}
			}
			copy(z, bestCode)
		} else {
			for improved := true; improved; {
				improved = false
				for j := range z {
					if g := flipGain(j); g < -1e-12*math.Max(1, math.Abs(cost)) {
						flip(j, g)
						improved = true
					}
				}
			}
		}
		for j, on := range z {
			if on {
				Z.Set(i, j, 1)
			}
		}
	}
	return Z, nil
}
