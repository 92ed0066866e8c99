package algorithms

import "math/bits"

// The Z-step of K-features (MAD-Bayes Alg. 4, step 1) chooses for one row x the binary
// code z minimising ‖x − zA‖². With b = Ax (K) and G = AAᵀ (K×K) that is
//
//	‖x − zA‖² = ‖x‖² − 2zᵀb + zᵀGz,
//
// so once b and G are known a code costs no work in D. For K ≤ maxExactK the step is
// exact: it walks all 2^K codes in Gray-code order, where consecutive codes differ in one
// bit j, so the linear term changes by ±b_j. The quadratic term zᵀGz does not depend on
// the row, so it is tabulated once per iteration (quadTable) and every code costs O(1)
// per row. Above maxExactK it does coordinate flips until none helps.

// maxExactK is the largest K whose Z-step enumerates every code exactly; 2^16 codes per
// row is still cheap next to the A-step, 2^17 and above is not.
const maxExactK = 16

// grayResync is how many Gray-code steps the running linear term may take before it is
// recomputed exactly from the code's bits, so rounding cannot drift over 2^16 steps.
const grayResync = 256

// zTolRel scales the improvement a new code must make before it replaces the current one.
// Codes within rounding error of each other are ties, and ties keep the current code, so
// the Z-step cannot cycle between equally good codes.
const zTolRel = 1e-12

// grayWalk is the Gray-code walk over all 2^K codes of K bits: step i (1 ≤ i < 2^K) goes
// from grayCode(i−1) to grayCode(i) by flipping bit j = trailing zeros of i. flip[i] is j
// when that bit switches on and j+K when it switches off: the index, into the signed
// vector [2b, −2b], of what the running linear term 2zᵀb adds. It is read-only once built
// and is shared by every worker.
type grayWalk struct {
	k    int
	flip []uint8
}

// grayCode returns the i-th code of the reflected binary Gray code.
func grayCode(i int) uint64 { return uint64(i ^ i>>1) }

func newGrayWalk(k int) *grayWalk {
	n := 1 << k
	flip := make([]uint8, n)
	for i := 1; i < n; i++ {
		j := bits.TrailingZeros(uint(i))
		if grayCode(i)&(1<<j) != 0 {
			flip[i] = uint8(j)
		} else {
			flip[i] = uint8(j + k)
		}
	}
	return &grayWalk{k: k, flip: flip}
}

// quadTable sets q[c] = cᵀGc for every code c < 2^K (G is K×K, row-major) and
// qg[i] = q[grayCode(i)], the same table in Gray-code order. q[c] is built from the code
// with its lowest bit cleared, so each entry is at most popcount(c) additions from exact.
func quadTable(q, qg, g []float64, k int) {
	n := 1 << k
	q = q[:n]
	qg = qg[:n]
	q[0] = 0
	for c := 1; c < n; c++ {
		j := bits.TrailingZeros(uint(c))
		rest := c & (c - 1)
		row := g[j*k : j*k+k]
		var s float64
		for r := rest; r != 0; r &= r - 1 {
			s += row[bits.TrailingZeros(uint(r))]
		}
		q[c] = q[rest] + row[j] + 2*s
	}
	for i := range qg {
		qg[i] = q[grayCode(i)]
	}
}

// codeDot returns zᵀb for the code z.
func codeDot(z uint64, b []float64) float64 {
	var s float64
	for r := z; r != 0; r &= r - 1 {
		s += b[bits.TrailingZeros64(r)]
	}
	return s
}

// zStepExact returns the code minimising zᵀGz − 2zᵀb over all 2^K codes, and its value.
// b is Ax (K values), q and qg come from quadTable, walk from newGrayWalk(K), and bb is
// scratch for [2b, −2b]. The current code cur is kept unless another beats it by more
// than tol; among those that do, the first smallest in Gray order wins.
func zStepExact(b, q, qg []float64, walk *grayWalk, bb *[2 * maxExactK]float64, cur uint64, tol float64) (uint64, float64) {
	k := walk.k
	for j, v := range b[:k] {
		bb[j] = 2 * v
		bb[j+k] = -2 * v
	}
	curVal := q[cur] - 2*codeDot(cur, b)
	best := curVal - tol
	bestI := -1
	flip := walk.flip
	qg = qg[:len(flip)]
	for start := 0; start < len(flip); start += grayResync {
		end := min(start+grayResync, len(flip))
		// Resynchronise: the block's first code is evaluated from its bits.
		lin := 2 * codeDot(grayCode(start), b)
		if v := qg[start] - lin; v < best {
			best, bestI = v, start
		}
		blockF := flip[start+1 : end]
		blockQ := qg[start+1 : end][:len(blockF)]
		for i, f := range blockF {
			lin += bb[f&(2*maxExactK-1)]
			if v := blockQ[i] - lin; v < best {
				best, bestI = v, start+1+i
			}
		}
	}
	if bestI < 0 {
		return cur, curVal
	}
	z := grayCode(bestI)
	// Report the winner's value from its bits, free of the walk's rounding.
	return z, q[z] - 2*codeDot(z, b)
}

// zStepFlips improves the code z by single-bit flips until no flip lowers
// zᵀGz − 2zᵀb by more than tol, sweeping the bits in order, and returns the code and its
// value. It is the Z-step for K > maxExactK: a local, not a global, minimum. gz is scratch
// of length K.
func zStepFlips(b, g []float64, k int, z uint64, gz []float64, tol float64) (uint64, float64) {
	gz = gz[:k]
	clear(gz)
	for r := z; r != 0; r &= r - 1 {
		j := bits.TrailingZeros64(r)
		row := g[j*k : j*k+k]
		for i, v := range row {
			gz[i] += v
		}
	}
	for changed := true; changed; {
		changed = false
		for j := 0; j < k; j++ {
			row := g[j*k : j*k+k]
			bit := uint64(1) << j
			var delta, sign float64
			if z&bit != 0 {
				// Removing j: Δ = G_jj − 2(Gz)_j + 2b_j, (Gz)_j counting G_jj.
				delta, sign = row[j]-2*gz[j]+2*b[j], -1
			} else {
				delta, sign = row[j]+2*gz[j]-2*b[j], 1
			}
			if delta < -tol {
				z ^= bit
				for i, v := range row {
					gz[i] += sign * v
				}
				changed = true
			}
		}
	}
	return z, codeQuad(z, g, k) - 2*codeDot(z, b)
}

// codeQuad returns zᵀGz for the code z.
func codeQuad(z uint64, g []float64, k int) float64 {
	var s float64
	for r := z; r != 0; r &= r - 1 {
		i := bits.TrailingZeros64(r)
		row := g[i*k : i*k+k]
		for t := z; t != 0; t &= t - 1 {
			s += row[bits.TrailingZeros64(t)]
		}
	}
	return s
}
