package features

import (
	"math"
	"math/bits"

	"gonum.org/v1/gonum/floats"
)

// The Z-step of K-features (MAD-Bayes Alg. 4, step 1) chooses for one row x the binary
// code z minimising ‖x − zA‖². With b = Ax (K) and G = AAᵀ (K×K) that is
//
//	‖x − zA‖² = ‖x‖² − 2zᵀb + zᵀGz,
//
// so once b and G are known a code costs no work in D. For K ≤ kfExactK the step is
// exact: it walks all 2^K codes in Gray-code order, where consecutive codes differ in one
// bit j, so the linear term changes by ±b_j. The quadratic term zᵀGz does not depend on
// the row, so it is tabulated once per iteration (quadTable) and every code costs O(1)
// per row. Above kfExactK it works block by block (zblocks.go).

// maxExactK is the largest number of bits zStepExact walks (its scratch is sized by it).
const maxExactK = 16

// kfExactK is the largest K at which K-features' Z-step walks all 2^K codes of a row;
// above it the block step (zblocks.go) is cheaper, and its cost grows far more slowly
// with K (chosen on the ORL faces: docs/DESIGN.md, "Measurements behind the code"). The
// exact step reaches lower objectives, but a stepwise path, which grows and shrinks the
// fits of neighbouring K (kfStart), closes most of that gap.
const kfExactK = 10

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

// bpExactMaxK is the largest number of live features for which the BP-means Z-step picks
// a row's code exactly, over all 2^K codes; above it, it flips one z_nk at a time as
// MAD-Bayes Alg. 1 states. The exact step is the per-row minimisation of the collapsed
// algorithm (Alg. 3) and of the K-features Z-step, applied to Alg. 1: it also sees moves
// that change several bits at once — a row leaving a feature that is the sum of two others
// for those two — which single flips cannot make. On the tabletop photos single flips
// stop at higher BP objectives, typically with a feature that stands for two objects at
// once, the failure the paper reports for BP-means, where the exact step often reaches
// the best K-features objective (docs/DESIGN.md, "Measurements behind the code").
// The walk costs O(1) a code, so 2^10 codes per row cost about as much as the K dot
// products that set the row up.
const bpExactMaxK = 10

// featureGram sets st.g = AAᵀ over the feature slots in use (dead slots included: their
// rows of A are still there, only never used).
func (st *bpState) featureGram() {
	for j := 0; j < st.k; j++ {
		st.gramRow(j)
	}
}

// gramRow sets row and column j of st.g from the features 0..j.
func (st *bpState) gramRow(j int) {
	aj := st.feature(j)
	for l := 0; l <= j; l++ {
		v := floats.Dot(aj, st.feature(l))
		st.g[j*st.kcap+l] = v
		st.g[l*st.kcap+j] = v
	}
}

// buildExact lists the live features and tabulates, for every code c over them (bit p of
// c stands for the p-th live feature), q[c] = cᵀGc — extending q[c without its lowest bit
// j] by G_jj + 2Σ G_jl over the other bits l of c — and the same in Gray-code order,
// qg[g] = q[gray(g)], with the walk's steps: going from gray(g−1) to gray(g) flips bit
// j = trailing zeros of g, on when gray(g) has it, and fl[g] is j (on) or j+m (off), an
// index into [b, −b].
func (st *bpState) buildExact() {
	m := 0
	for j := 0; j < st.k; j++ {
		if st.owners[j] > 0 {
			st.live[m] = j
			m++
		}
	}
	st.nlive = m
	n := 1 << m
	if len(st.q) < n {
		st.q = make([]float64, n)
		st.qg = make([]float64, n)
		st.fl = make([]uint8, n)
	}
	q, kc := st.q[:n], st.kcap
	q[0] = 0
	for c := 1; c < n; c++ {
		p := bits.TrailingZeros(uint(c))
		rest := c & (c - 1)
		row := st.g[st.live[p]*kc:]
		s := row[st.live[p]]
		for r := rest; r != 0; r &= r - 1 {
			s += 2 * row[st.live[bits.TrailingZeros(uint(r))]]
		}
		q[c] = q[rest] + s
	}
	qg, fl := st.qg[:n], st.fl[:n]
	for g := range qg {
		gc := grayCode(g)
		qg[g] = q[gc]
		if g > 0 {
			j := bits.TrailingZeros(uint(g))
			if gc>>j&1 != 0 {
				fl[g] = uint8(j)
			} else {
				fl[g] = uint8(j + m)
			}
		}
	}
	st.stale = false
}

// exactRow gives row i the code over the live features that minimises its part of the
// BP-means objective,
//
//	‖x_i − cA‖² − λ²·(features only row i owns that c leaves) = ‖x_i‖² − 2c·b + q[c] − λ²·lost(c),
//
// with b = Ax_i, walking all codes in Gray-code order so consecutive codes differ in one bit
// and cost O(1) each. The current code is kept unless another beats it by more than
// rounding, and a code that would leave no feature at all is not allowed. It updates Z and
// the owner counts and returns the number of bits changed and the row's new squared
// residual ‖x_i − z_iA‖².
func (st *bpState) exactRow(i int, lambda2 float64) (int, float64) {
	if st.stale {
		st.buildExact()
	}
	m := st.nlive
	live := st.live[:m]
	zi := st.zrow(i)
	x := st.xrow(i)
	b := st.b[:m]
	var bb [2 * bpExactMaxK]float64
	var cur, sole uint64
	for p, j := range live {
		v := floats.Dot(st.feature(j), x)
		b[p], bb[p], bb[p+m] = v, v, -v
		if zi[j] != 0 {
			cur |= 1 << p
			if st.owners[j] == 1 {
				sole |= 1 << p
			}
		}
	}
	n := 1 << m
	q, qg, fl := st.q[:n], st.qg[:n], st.fl[:n]
	lin := codeDot(cur, b)
	curVal := q[cur] - 2*lin - lambda2*float64(bits.OnesCount64(sole&^cur))
	xx := floats.Dot(x, x)
	thr := curVal - bpFlipTol*(xx+math.Abs(curVal))
	bestG := -1
	all := uint64(1)<<m - 1
	for start := 0; start < n; start += grayResync {
		end := min(start+grayResync, n)
		// Each block starts from the code's bits, so rounding cannot build up.
		lin := codeDot(grayCode(start), b)
		if sole == 0 {
			// No feature can be lost: the plain quadratic.
			if v := qg[start] - 2*lin; v < thr {
				thr, bestG = v, start
			}
			for g := start + 1; g < end; g++ {
				lin += bb[fl[g]%(2*bpExactMaxK)]
				if v := qg[g] - 2*lin; v < thr {
					thr, bestG = v, g
				}
			}
			continue
		}
		for g := start; g < end; g++ {
			if g > start {
				lin += bb[fl[g]%(2*bpExactMaxK)]
			}
			lost := sole &^ grayCode(g)
			if lost == all {
				continue // every feature would go: K ≥ 1 is kept
			}
			if v := qg[g] - 2*lin - lambda2*float64(bits.OnesCount64(lost)); v < thr {
				thr, bestG = v, g
			}
		}
	}
	best := cur
	if bestG >= 0 {
		best = grayCode(bestG)
	}
	rr := max(xx+q[best]-2*codeDot(best, b), 0)
	if best == cur {
		return 0, rr
	}
	changed := 0
	for diff := best ^ cur; diff != 0; diff &= diff - 1 {
		p := bits.TrailingZeros64(diff)
		j := live[p]
		if best&(1<<p) != 0 {
			zi[j] = 1
			st.owners[j]++
		} else {
			zi[j] = 0
			st.owners[j]--
			if st.owners[j] == 0 {
				st.alive--
				st.stale = true
			}
		}
		changed++
	}
	return changed, rr
}
