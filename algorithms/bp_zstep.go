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
// restarts) single flips stop at BP objectives of 278–286 (seeds 1–3) — typically with a
// feature that stands for two objects at once, the failure the paper reports for BP-means
// — while the exact step reaches 261.2, the best K-features objective at K = 5, for half
// the seeds and 261–270 for the others.
// The walk costs O(1) a code, so 2^10 codes per row cost about as much as the K dot
// products that set the row up.
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
		gc := bpGray(g)
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

// bpGray returns the g-th code of the reflected binary Gray code.
func bpGray(g int) uint64 { return uint64(g ^ g>>1) }

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
	lin := bpCodeDot(cur, b)
	curVal := q[cur] - 2*lin - lambda2*float64(bits.OnesCount64(sole&^cur))
	xx := floats.Dot(x, x)
	thr := curVal - bpFlipTol*(xx+math.Abs(curVal))
	bestG := -1
	all := uint64(1)<<m - 1
	for start := 0; start < n; start += bpGrayResync {
		end := min(start+bpGrayResync, n)
		// Each block starts from the code's bits, so rounding cannot build up.
		lin := bpCodeDot(bpGray(start), b)
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
			lost := sole &^ bpGray(g)
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
		best = bpGray(bestG)
	}
	rr := max(xx+q[best]-2*bpCodeDot(best, b), 0)
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
