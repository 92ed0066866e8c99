package algorithms

import (
	"math"
	"math/bits"

	"gonum.org/v1/gonum/floats"
)

// bpExactMaxK is the largest number of live features for which the BP-means Z-step picks
// a row's code exactly, over all 2^K codes; above it, it flips one z_nk at a time as
// MAD-Bayes Alg. 1 states. The exact step is the per-row minimisation of the collapsed
// algorithm (Alg. 3) and of the K-features Z-step, applied to Alg. 1: it also sees moves
// that change several bits at once — a row leaving a feature that is the sum of two others
// for those two — which single flips cannot make. On the tabletop photos (λ² = 20, 1000
// restarts) this is the difference between K = 6 with a superfluous combined feature (the
// failure the paper reports for BP-means) and K = 5 with a lower objective than stepwise
// K-features. 2^12 codes per row keep a sweep within a few milliseconds.
const bpExactMaxK = 10

// bpGrayResync is how many Gray-code steps the running code·b sum may take before it is
// recomputed from the code's bits, so its rounding cannot build up.
const bpGrayResync = 256

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

// buildExact lists the live features and tabulates q[c] = cᵀGc for every code c over
// them (bit p of c stands for the p-th live feature). q[c] extends q[c without its lowest
// bit j] by G_jj + 2Σ G_jl over the other bits l of c, O(K) per code.
func (st *bpState) buildExact() {
	m := 0
	for j := 0; j < st.k; j++ {
		if st.owners[j] > 0 {
			st.live[m] = j
			m++
		}
	}
	st.nlive = m
	if need := 1 << m; len(st.q) < need {
		st.q = make([]float64, need)
	}
	q, kc := st.q, st.kcap
	q[0] = 0
	for c := 1; c < 1<<m; c++ {
		p := bits.TrailingZeros(uint(c))
		rest := c & (c - 1)
		row := st.g[st.live[p]*kc:]
		s := row[st.live[p]]
		for r := rest; r != 0; r &= r - 1 {
			s += 2 * row[st.live[bits.TrailingZeros(uint(r))]]
		}
		q[c] = q[rest] + s
	}
	st.stale = false
}

// bpCodeDot returns Σ b_p over the bits p of code c.
func bpCodeDot(c uint64, b []float64) float64 {
	var s float64
	for r := c; r != 0; r &= r - 1 {
		s += b[bits.TrailingZeros64(r)]
	}
	return s
}

// exactRow gives row i the code over the live features that minimises its part of the
// BP-means objective,
//
//	‖x_i − cA‖² − λ²·(features only row i owns that c leaves) = ‖x_i‖² − 2c·b + q[c] − λ²·lost(c),
//
// with b = Ax_i, walking all codes in Gray-code order so consecutive codes differ in one bit
// and cost O(1) each. The current code is kept unless another beats it by more than
// rounding, and a code that would leave no feature at all is not allowed. It updates the
// residual, Z and the owner counts and returns the number of bits changed.
func (st *bpState) exactRow(i int, lambda2 float64) int {
	if st.stale {
		st.buildExact()
	}
	m := st.nlive
	live := st.live[:m]
	zi := st.zrow(i)
	x := st.xrow(i)
	b := st.b[:m]
	var cur, sole uint64
	for p, j := range live {
		b[p] = floats.Dot(st.feature(j), x)
		if zi[j] != 0 {
			cur |= 1 << p
			if st.owners[j] == 1 {
				sole |= 1 << p
			}
		}
	}
	all := uint64(1)<<m - 1
	q := st.q[:1<<m]
	curVal := q[cur] - 2*bpCodeDot(cur, b) - lambda2*float64(bits.OnesCount64(sole&^cur))
	xx := floats.Dot(x, x)
	thr := curVal - bpFlipTol*(xx+math.Abs(curVal))
	best := cur
	var c uint64
	var lin float64
	for g := range q {
		if g > 0 {
			bit := uint64(1) << bits.TrailingZeros(uint(g))
			if c&bit != 0 {
				lin -= b[bits.TrailingZeros64(bit)]
			} else {
				lin += b[bits.TrailingZeros64(bit)]
			}
			c ^= bit
		}
		if g%bpGrayResync == 0 {
			lin = bpCodeDot(c, b)
		}
		lost := sole &^ c
		if lost == all {
			continue // every feature would go: K ≥ 1 is kept
		}
		if v := q[c] - 2*lin - lambda2*float64(bits.OnesCount64(lost)); v < thr {
			thr, best = v, c
		}
	}
	if best == cur {
		return 0
	}
	r := st.residual(i)
	changed := 0
	for diff := best ^ cur; diff != 0; diff &= diff - 1 {
		p := bits.TrailingZeros64(diff)
		j := live[p]
		if best&(1<<p) != 0 {
			floats.Sub(r, st.feature(j))
			zi[j] = 1
			st.owners[j]++
		} else {
			floats.Add(r, st.feature(j))
			zi[j] = 0
			st.owners[j]--
			if st.owners[j] == 0 {
				st.alive--
				st.stale = true
			}
		}
		changed++
	}
	return changed
}
