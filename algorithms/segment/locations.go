package segment

import (
	"math"

	"gonum.org/v1/gonum/mathext"

	"featurelab/internal/parallel"
)

// Learning the cluster locations x̂_c and kernel widths ψ_c (paper §3.5): the bound
// depends on them only through the sticks of cluster c, so each cluster is a separate
// problem of two or three variables, solved by L-BFGS from gonum/optimize (minimize).
//
// For fixed responsibilities the best q(v) is known in closed form (eqs. (44)–(45)), and
// with it the stick terms of the bound and the sticks' share of Σ_n q(z_n)⟨ln ϖ(x_n)⟩
// add up to (see merge.go)
//
//	J_c = Σ_x ln B(β̃, β̂) + P(k),
//
// with β̃ = k + n_c(x), β̂ = ⟨α⟩ + c(1 − k) + T_c(x), n_c(x) the responsibilities of the
// pixels at location x, T_c(x) those of the later clusters, k = k(x, x̂_c; ψ_c) and P
// from stickPrior at ᾱ = exp⟨ln α⟩. The step maximises J_c over (x̂_c, ln ψ_c). By the
// envelope theorem its gradient is that of the prior terms at fixed q(v):
//
//	∂J/∂k = Σ_x [c ψ(ᾱ + s) − (c − 1)ψ(ᾱ + s + k) − ψ(k) + ⟨ln v⟩ − c⟨ln(1 − v)⟩],
//
// and ∂k/∂x̂ = 2k(x − x̂)/ψ², ∂k/∂ln ψ = 2k‖x − x̂‖²/ψ². The next pass then sets q(v) to
// exactly that optimum, so a step that does not lower J_c cannot lower the bound.

// refineIterations caps the quasi-Newton iterations per cluster and step.
const refineIterations = 25

// refineEvery is the number of iterations between location/width steps.
const refineEvery = 5

// refineLocations runs the location/width step for every cluster that has a stick.
func (m *kpyp) refineLocations() {
	counts := m.cellCounts()
	_, elog := m.alphaMoments()
	alphaMean, alphaBar := m.eta1/m.eta2, math.Exp(elog)
	parallel.For(m.workers, m.C-1, func(_, c int) {
		m.refineCluster(c, counts, alphaMean, alphaBar)
	})
	m.kernelTables()
	m.u0 = math.Inf(1) // the stick normalisers' tangent sums are stale: recompute them
}

// cellCounts returns, for every cell of the lattice (row-major) and cluster c, the sum of
// the responsibilities of the cell's pixels (GH·GW×C).
func (m *kpyp) cellCounts() []float64 {
	C, W := m.C, m.p.W
	counts := make([]float64, m.GH*m.GW*C)
	parallel.For(m.workers, m.GH, func(_, i int) {
		for j := 0; j < m.GW; j++ {
			cnt := counts[(i*m.GW+j)*C : (i*m.GW+j+1)*C]
			for y := i * m.cell; y < min((i+1)*m.cell, m.p.H); y++ {
				for x := j * m.cell; x < min((j+1)*m.cell, W); x++ {
					for c, r := range m.R[(y*W+x)*C : (y*W+x+1)*C] {
						cnt[c] += r
					}
				}
			}
		}
	})
	return counts
}

// stickObjective returns J_c and its gradient for cluster c at location (ly, lx) and
// width psi; grad (length 3: ∂/∂ŷ, ∂/∂x̂, ∂/∂ln ψ) may be nil.
func (m *kpyp) stickObjective(c int, ly, lx, psi float64, counts []float64, alphaMean, alphaBar float64, grad []float64) float64 {
	C := m.C
	inv := 1 / (psi * psi)
	var j, gy, gx, gp float64
	for i := 0; i < m.GH; i++ {
		ey := m.cellCentre(i, m.p.H) - ly
		for jj := 0; jj < m.GW; jj++ {
			ex := m.cellCentre(jj, m.p.W) - lx
			d2 := ey*ey + ex*ex
			krbf := math.Exp(-d2 * inv)
			k := (1 - m.disc) * krbf
			floored := k < kernelFloor
			if floored {
				k = kernelFloor
			}
			cnt := counts[(i*m.GW+jj)*C : (i*m.GW+jj+1)*C]
			var t float64
			for _, v := range cnt[c+1:] {
				t += v
			}
			j += stickTerm(k, cnt[c], t, c+1, alphaMean, alphaBar)
			if grad == nil || floored {
				continue
			}
			dk := stickSlope(k, cnt[c], t, c+1, alphaMean, alphaBar) * (1 - m.disc) * krbf // ∂J/∂k_rbf·k_rbf
			gy += dk * 2 * ey * inv
			gx += dk * 2 * ex * inv
			gp += dk * 2 * d2 * inv
		}
	}
	if grad != nil {
		grad[0], grad[1], grad[2] = gy, gx, gp
	}
	return j
}

// stickSlope is ∂J/∂k of stickTerm for stick c (1-based) at kernel k, count n and later
// counts t, with q(v) held at its optimum (the envelope theorem).
func stickSlope(k, n, t float64, c int, alphaMean, alphaBar float64) float64 {
	ci := float64(c)
	s := ci * (1 - k)
	bt, bh := k+n, alphaMean+s+t
	ds := mathext.Digamma(bt + bh)
	elv, el1v := mathext.Digamma(bt)-ds, mathext.Digamma(bh)-ds
	return ci*mathext.Digamma(alphaBar+s) - (ci-1)*mathext.Digamma(alphaBar+s+k) -
		mathext.Digamma(k) + elv - ci*el1v
}

// refineCluster maximises J_c over the learnt subset of (ŷ_c, x̂_c, ln ψ_c) and keeps the
// result if J_c did not decrease.
func (m *kpyp) refineCluster(c int, counts []float64, alphaMean, alphaBar float64) {
	ly, lx, psi := m.locY[c], m.locX[c], m.width[c]
	// unpack maps the optimiser's variables to (ŷ, x̂, ψ).
	unpack := func(v []float64) (float64, float64, float64) {
		y, x, p := ly, lx, psi
		i := 0
		if m.learnLoc {
			y, x = v[0], v[1]
			i = 2
		}
		if m.learnWidth {
			p = math.Exp(v[i])
		}
		return y, x, p
	}
	var x0 []float64
	if m.learnLoc {
		x0 = append(x0, ly, lx)
	}
	if m.learnWidth {
		x0 = append(x0, math.Log(psi))
	}
	g := make([]float64, 3)
	f := func(v []float64) float64 {
		y, x, p := unpack(v)
		return -m.stickObjective(c, y, x, p, counts, alphaMean, alphaBar, nil)
	}
	grad := func(grad, v []float64) {
		y, x, p := unpack(v)
		m.stickObjective(c, y, x, p, counts, alphaMean, alphaBar, g)
		i := 0
		if m.learnLoc {
			grad[0], grad[1] = -g[0], -g[1]
			i = 2
		}
		if m.learnWidth {
			grad[i] = -g[2]
		}
	}
	before := f(x0)
	x, fx := minimize(f, grad, x0, refineIterations)
	if fx < before && !math.IsNaN(fx) {
		m.locY[c], m.locX[c], m.width[c] = unpack(x)
	}
}
