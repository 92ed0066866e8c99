package features

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
)

// plusPlus sets st to the BP-means++ initialisation of MAD-Bayes §5, the feature analogue
// of K-means++. It starts in one of two ways, chosen by the caller:
//
//   - withBase (the paper): feature 1 is the mean of all rows, owned by every row — the
//     "base feature, shared amongst all the data" the feature algorithms tend to prefer;
//   - without (the reference code, bp_means_plus_plus.m): no features at all.
//
// Then, repeatedly, a row n is drawn with probability ∝ its squared residual
// ‖x_n − z_nA‖², the proposed feature is that residual, and every row takes it when that
// lowers its own squared residual. A proposal is kept while it lowers the BP-means
// objective ‖X − ZA‖² + λ²K; the first one that does not ends the initialisation. The
// first feature is always kept, so there is at least one: a result needs a feature, and
// on centred data (PCA scores) the mean is 0 and pays nothing, yet the A-step turns it
// into the common background as soon as other features exist.
//
// Each kept proposal zeroes the residual of the row it came from, so at most N are kept.
func (st *bpState) plusPlus(lambda2 float64, withBase bool, rng *rand.Rand) {
	n, d := st.n, st.d
	st.k, st.alive = 0, 0
	st.reserve(1)
	if !withBase && st.allZero() {
		withBase = true // nothing to sample from: the base (0) is the one feature
	}
	if withBase {
		mean := st.s[:d] // scratch until the A-step
		clear(mean)
		for i := 0; i < n; i++ {
			floats.Add(mean, st.xrow(i))
		}
		floats.Scale(1/float64(n), mean)
		st.addFeature(mean, 0)
		for i := 0; i < n; i++ {
			st.z[i*st.kcap] = 1
		}
		st.owners[0] = n
		st.recomputeResiduals()
	} else {
		copy(st.r, st.x)
		st.rss = 0
		for i := 0; i < n; i++ {
			r := st.residual(i)
			st.rnorm[i] = floats.Dot(r, r)
			st.rss += st.rnorm[i]
		}
	}
	obj := bpObjective(st.rss, lambda2, st.k)

	for st.rss > 0 {
		pick := bpSample(st.rnorm, st.rss, rng)
		st.reserve(st.k + 1)
		j := st.k
		a := st.a[j*d : (j+1)*d]
		copy(a, st.residual(pick))
		an := st.rnorm[pick]
		// Row i takes the proposal when ‖r_i − a‖² < ‖r_i‖², i.e. 2 r_i·a > ‖a‖².
		rss := 0.0
		for i := 0; i < n; i++ {
			ra := floats.Dot(st.residual(i), a)
			st.dots[i] = ra
			if 2*ra > an {
				rss += st.rnorm[i] - 2*ra + an
			} else {
				rss += st.rnorm[i]
			}
		}
		if st.k > 0 && !(bpObjective(rss, lambda2, st.k+1) < obj) {
			break
		}
		st.addFeature(a, pick)
		st.z[pick*st.kcap+j] = 0 // addFeature set it; it is set again below with the others
		st.owners[j] = 0
		st.rss = 0
		for i := 0; i < n; i++ {
			r := st.residual(i)
			if 2*st.dots[i] > an {
				floats.Sub(r, a)
				st.z[i*st.kcap+j] = 1
				st.owners[j]++
				st.rnorm[i] = floats.Dot(r, r)
			}
			st.rss += st.rnorm[i]
		}
		obj = bpObjective(st.rss, lambda2, st.k)
	}
}

// bpSample draws i with probability w[i]/total; total is the sum of the non-negative
// weights and must be > 0.
func bpSample(w []float64, total float64, rng *rand.Rand) int {
	u := rng.Float64() * total
	last := 0
	for i, v := range w {
		if v <= 0 {
			continue
		}
		last = i
		if u < v {
			return i
		}
		u -= v
	}
	return last // rounding left u a hair above the sum
}

// allZero reports whether every entry of X is 0.
func (st *bpState) allZero() bool {
	for _, v := range st.x {
		if v != 0 {
			return false
		}
	}
	return true
}
