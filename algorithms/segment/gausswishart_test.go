package segment

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

// randomPosterior returns the posterior of d-dimensional clusters after n random points,
// under the prior with extra pseudo-pixels of covariance.
func randomPosterior(t *testing.T, d, n int, extra float64, rng *rand.Rand) *nwCluster {
	t.Helper()
	s0 := float64(n)
	s1 := make([]float64, d)
	s2 := make([]float64, d*d)
	for k := 0; k < n; k++ {
		y := make([]float64, d)
		for i := range y {
			y[i] = rng.NormFloat64() + float64(i)
		}
		for i := 0; i < d; i++ {
			s1[i] += y[i]
			for j := 0; j < d; j++ {
				s2[i*d+j] += y[i] * y[j]
			}
		}
	}
	q := newNWCluster(d)
	if err := q.update(newNWPrior(d, extra), s0, s1, s2); err != nil {
		t.Fatal(err)
	}
	return q
}

func TestNormalWishartKL(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		d     int
		extra float64
	}{{1, 0}, {3, 0}, {5, 0}, {3, 50}, {5, 500}} {
		d := tc.d
		prior := newNWPrior(d, tc.extra)
		logDetW0 := prior.logDetW()
		// Whatever the pseudo-pixels, the prior mean of the covariance is σ0²·I.
		if ev := prior.winv[0] / (prior.nu - float64(d) - 1); math.Abs(ev-nwSigma0*nwSigma0) > 1e-12 {
			t.Errorf("D=%d extra %v: E[Λ⁻¹]₁₁ = %v, want %v", d, tc.extra, ev, nwSigma0*nwSigma0)
		}
		// No data: the posterior is the prior.
		q := newNWCluster(d)
		if err := q.update(prior, 0, make([]float64, d), make([]float64, d*d)); err != nil {
			t.Fatal(err)
		}
		if kl := q.kl(prior, logDetW0); math.Abs(kl) > 1e-9 {
			t.Errorf("D=%d: KL(prior ‖ prior) = %v", d, kl)
		}
		for _, n := range []int{1, 10, 1000} {
			if kl := randomPosterior(t, d, n, tc.extra, rng).kl(prior, logDetW0); !(kl > 0) {
				t.Errorf("D=%d extra %v n=%d: KL = %v, want > 0", d, tc.extra, n, kl)
			}
		}
	}
}

func TestExpectedLogDetWishart1D(t *testing.T) {
	// In one dimension W(w, ν) is Gamma(ν/2, scale 2w): ⟨ln Λ⟩ = ψ(ν/2) + ln 2w.
	for _, tc := range []struct{ nu, w float64 }{{3, 0.5}, {10, 2}, {1000, 0.01}} {
		got := eLogDetWishart(tc.nu, math.Log(tc.w), 1)
		want := mathext.Digamma(tc.nu/2) + math.Log(2*tc.w)
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("ν=%v w=%v: %v, want %v", tc.nu, tc.w, got, want)
		}
	}
}

func TestPackedExpLogLik(t *testing.T) {
	// The pixel loop's φ (packed Cholesky factors, unrolled for D = 3) equals
	// ½⟨ln|Λ|⟩ − (D/2)ln 2π − ½(D/β + ν(y−m)ᵀW(y−m)) computed with W itself.
	rng := rand.New(rand.NewPCG(7, 8))
	for _, d := range []int{3, 5} {
		m := &kpyp{C: 4, D: d, power: 1, mu: make([]float64, 4*d), u: make([]float64, 4*d*d), lconst: make([]float64, 4)}
		for c := 0; c < 4; c++ {
			m.clusters = append(m.clusters, randomPosterior(t, d, 5+40*c, 0, rng))
		}
		m.packClusters()
		y := make([]float64, d)
		for i := range y {
			y[i] = 2 * rng.NormFloat64()
		}
		a, e, diff := make([]float64, 4), make([]float64, 4), make([]float64, d)
		best, amax := m.expLogLiks(a, e, y, diff)
		for c, q := range m.clusters {
			var quad float64
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					quad += (y[i] - q.m[i]) * q.w[i*d+j] * (y[j] - q.m[j])
				}
			}
			fd := float64(d)
			want := 0.5*q.eLogDetL - 0.5*fd*math.Log(2*math.Pi) - 0.5*(fd/q.beta+q.nu*quad)
			if math.Abs(a[c]-want) > 1e-9*(1+math.Abs(want)) {
				t.Errorf("D=%d cluster %d: φ = %v, want %v", d, c, a[c], want)
			}
			if a[c] > amax || (a[c] == amax && c != best) {
				t.Errorf("D=%d: best %d (%v) but cluster %d has %v", d, best, amax, c, a[c])
			}
		}
	}
}
