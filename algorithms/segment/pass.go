package segment

import (
	"math"

	"gonum.org/v1/gonum/mathext"

	"featurelab/internal/parallel"
)

// expUnderflow is the argument below which math.Exp returns 0.
const expUnderflow = -745.2

// lik3 is one cluster's E-step parameters for 3-dimensional features: the mean, the
// upper triangle of U and the constant of φ, side by side so the pixel loop streams
// through 80 bytes per cluster without slicing.
type lik3 struct {
	m0, m1, m2, u00, u01, u02, u11, u12, u22, k float64
}

// packClusters copies the clusters' E-step parameters into mu, u and lconst (and lik3).
func (m *kpyp) packClusters() {
	D := m.D
	for c, q := range m.clusters {
		copy(m.mu[c*D:(c+1)*D], q.m)
		copy(m.u[c*D*D:(c+1)*D*D], q.u)
		m.lconst[c] = q.logLConst
	}
	// The likelihood's power ζ scales ⟨ln p(y_n|θ_c)⟩ = const_c − ½‖U_c(y_n − m_c)‖²:
	// const_c by ζ and U_c by √ζ.
	st := math.Sqrt(m.power)
	for i := range m.u {
		m.u[i] *= st
	}
	for i := range m.lconst {
		m.lconst[i] *= m.power
	}
	if D == 3 {
		m.lik3 = m.lik3[:0]
		for _, q := range m.clusters {
			u := q.u
			m.lik3 = append(m.lik3, lik3{q.m[0], q.m[1], q.m[2], st * u[0], st * u[1], st * u[2], st * u[4], st * u[5], st * u[8], m.lconst[len(m.lik3)]})
		}
	}
}

// expLogLiks sets a_c = e_c + φ_nc for every cluster c, where φ_nc = ⟨ln p(y_n|θ_c)⟩
// (eq. (52); PRML (10.64)–(10.65)) = const_c − ½‖U_c(y_n − m_c)‖². It returns the
// largest a_c and its cluster.
func (m *kpyp) expLogLiks(a, e, yn, diff []float64) (int, float64) {
	C, D := m.C, m.D
	best, amax := 0, math.Inf(-1)
	if D == 3 {
		// Unrolled: the plain colour model is the common case.
		y0, y1, y2 := yn[0], yn[1], yn[2]
		e = e[:len(m.lik3)]
		a = a[:len(m.lik3)]
		for c := range m.lik3 {
			l := &m.lik3[c]
			d0, d1, d2 := y0-l.m0, y1-l.m1, y2-l.m2
			t0 := l.u00*d0 + l.u01*d1 + l.u02*d2
			t1 := l.u11*d1 + l.u12*d2
			t2 := l.u22 * d2
			v := e[c] + l.k - 0.5*(t0*t0+t1*t1+t2*t2)
			a[c] = v
			if v > amax {
				best, amax = c, v
			}
		}
		return best, amax
	}
	for c := 0; c < C; c++ {
		mu := m.mu[c*D : (c+1)*D]
		u := m.u[c*D*D : (c+1)*D*D]
		var quad float64
		for i := 0; i < D; i++ {
			diff[i] = yn[i] - mu[i]
		}
		for i := 0; i < D; i++ {
			row := u[i*D : (i+1)*D]
			var t float64
			for j := i; j < D; j++ {
				t += row[j] * diff[j]
			}
			quad += t * t
		}
		v := e[c] + m.lconst[c] - 0.5*quad
		a[c] = v
		if v > amax {
			best, amax = c, v
		}
	}
	return best, amax
}

// pass updates, for every location, q(v(x)) from the current responsibilities (eqs.
// (43)–(45)) and then q(z_n) of its pixels (eqs. (50)–(54)), and gathers the sums the
// global steps and the bound need. When retangent is set it moves the tangent point of
// the stick normalisers' bound to the current ⟨ln α⟩ and recomputes sumP and sumA.
func (m *kpyp) pass(retangent bool) {
	alphaMean, elog := m.alphaMoments()
	alphaBar := math.Exp(elog)
	parallel.For(m.workers, m.numChunks(), func(w, ch int) {
		acc := m.parts[ch]
		clear(acc)
		for i := ch * m.chunkRows; i < min((ch+1)*m.chunkRows, m.GH); i++ {
			for j := 0; j < m.GW; j++ {
				m.passCell(i, j, acc, m.scratch[w], alphaMean, alphaBar, retangent)
			}
		}
		m.mirrorStats(acc)
	})
	parallel.SumChunks(m.tot, m.parts)
	m.temperStats()
	if retangent {
		m.u0, m.sumP, m.sumA = elog, m.tot[accP], m.tot[accA]
	}
	m.stickFree = false
}

// passCell runs the pass over the pixels of cell (i, j), adding to acc.
func (m *kpyp) passCell(i, j int, acc, scratch []float64, alphaMean, alphaBar float64, retangent bool) {
	C, D, W := m.C, m.D, m.p.W
	cnt := scratch[:C]           // Σ_{m: x_m = x} q(z_m = c)
	t := scratch[C : 2*C]        // Σ_{c' > c} cnt_c'
	elogpi := scratch[2*C : 3*C] // ⟨ln ϖ_c(x)⟩
	a := scratch[3*C : 4*C]
	av := scratch[4*C : 5*C] // a_c − max a
	diff := scratch[5*C : 5*C+D]
	y0, y1 := i*m.cell, min((i+1)*m.cell, m.p.H)
	x0, x1 := j*m.cell, min((j+1)*m.cell, W)

	clear(cnt)
	if !m.stickFree {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				rn := m.R[(y*W+x)*C : (y*W+x+1)*C]
				for c, r := range rn {
					cnt[c] += r
				}
			}
		}
	}
	var run float64
	for c := C - 1; c >= 0; c-- {
		t[c] = run
		run += cnt[c]
	}
	// Sticks c = 1..C−1 (index c+1 in the paper); v_C = 1.
	var cum, vterm, el1vSum, pSum, aSum float64
	for c := 0; c < C-1; c++ {
		k := m.kernel(i, j, c)
		s := float64(c+1) * (1 - k)
		bt := k + cnt[c]           // β̃, eq. (44)
		bh := alphaMean + s + t[c] // β̂, eq. (45)
		ds := mathext.Digamma(bt + bh)
		elv := mathext.Digamma(bt) - ds  // ⟨ln v⟩, eq. (53)
		el1v := mathext.Digamma(bh) - ds // ⟨ln(1 − v)⟩, eq. (54)
		elogpi[c] = cum + elv            // eq. (51)
		cum += el1v
		el1vSum += el1v
		// ⟨ln p(v|α)⟩ − ⟨ln q(v)⟩ without its α-normaliser: the (k−1)⟨ln v⟩ and
		// (⟨α⟩+s−1)⟨ln(1−v)⟩ terms cancel against q's except for the responsibilities'
		// share, which keeps the sum exact where k is tiny and ⟨ln v⟩ ≈ −1/k is huge.
		vterm += lnBeta(bt, bh) - cnt[c]*elv - t[c]*el1v
		if retangent {
			p, sl := stickPrior(k, c+1, alphaBar)
			pSum += p
			aSum += sl
		}
	}
	elogpi[C-1] = cum

	s0 := acc[accStats : accStats+C]
	s1 := acc[accStats+C : accStats+C+C*D]
	s2 := acc[accStats+C+C*D:]
	var bnd, entropy float64
	changed := 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			n := y*W + x
			rn := m.R[n*C : (n+1)*C]
			yn := m.p.Y[n*D : (n+1)*D]
			best, amax := m.expLogLiks(a, elogpi, yn, diff) // eqs. (50), (52)
			// q(z_n = c) ∝ exp(a_c); Σ_c q(a_c − ln q) = ln Σ_c exp(a_c). The entropy
			// −Σ_c q ln q = ln z − Σ_c q (a_c − max a) costs one multiply-add more; the
			// tests need it to check the merge moves' bound against the passes'.
			var z float64
			for c := 0; c < C; c++ {
				v := a[c] - amax
				av[c] = v
				if v > expUnderflow {
					a[c] = math.Exp(v)
					z += a[c]
				} else {
					a[c] = 0 // exp would return 0 too: skip the call
				}
			}
			logz := math.Log(z)
			bnd += amax + logz
			inv := 1 / z
			var qv float64
			for c := 0; c < C; c++ {
				r := a[c] * inv
				rn[c] = r
				if r == 0 {
					continue
				}
				qv += r * av[c]
				s0[c] += r
				if D == 3 {
					y0, y1, y2 := yn[0], yn[1], yn[2]
					sc1 := s1[c*3 : c*3+3 : c*3+3]
					sc2 := s2[c*9 : c*9+9 : c*9+9]
					ry0, ry1, ry2 := r*y0, r*y1, r*y2
					sc1[0] += ry0
					sc1[1] += ry1
					sc1[2] += ry2
					sc2[0] += ry0 * y0
					sc2[1] += ry0 * y1
					sc2[2] += ry0 * y2
					sc2[4] += ry1 * y1
					sc2[5] += ry1 * y2
					sc2[8] += ry2 * y2
					continue
				}
				sc1 := s1[c*D : (c+1)*D]
				sc2 := s2[c*D*D : (c+1)*D*D]
				for i, yi := range yn {
					ryi := r * yi
					sc1[i] += ryi
					for j := i; j < D; j++ {
						sc2[i*D+j] += ryi * yn[j]
					}
				}
			}
			entropy += logz - qv
			if m.labels[n] != int32(best) {
				m.labels[n] = int32(best)
				changed++
			}
		}
	}
	acc[accBound] += bnd + vterm
	acc[accEl1v] += el1vSum
	acc[accP] += pSum
	acc[accA] += aSum
	acc[accChanged] += float64(changed)
	acc[accEntropy] += entropy
}

// mirrorStats copies the upper triangles of a chunk's second moments to the lower.
func (m *kpyp) mirrorStats(acc []float64) {
	C, D := m.C, m.D
	s2 := acc[accStats+C+C*D:]
	for c := 0; c < C; c++ {
		sc2 := s2[c*D*D : (c+1)*D*D]
		for i := 0; i < D; i++ {
			for j := i + 1; j < D; j++ {
				sc2[j*D+i] = sc2[i*D+j]
			}
		}
	}
}

// temperStats scales the responsibility statistics of the last pass by the likelihood's
// power ζ: under p(y|θ)^ζ each pixel counts as ζ observations in q(θ_c)'s update (55)
// and in the merge and split moves' bound.
func (m *kpyp) temperStats() {
	if m.power == 1 {
		return
	}
	for i := accStats; i < len(m.tot); i++ {
		m.tot[i] *= m.power
	}
}
