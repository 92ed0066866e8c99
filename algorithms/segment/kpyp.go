package segment

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
)

// kpyp is the state of the mean-field posterior of the KPYP mixture of one image
// (paper §3.3–3.4): responsibilities q(z_n = c), the sticks q(v_c(x)) of every location
// (not stored: they are recomputed from the responsibilities in every pass), q(α), and
// the Normal–Wishart q(θ_c).
//
// Locations live on a lattice of cells of cell×cell pixels; all pixels of a cell share
// its centre as their location x_n, so by eqs. (44)–(45) they share one set of sticks
// whose posterior pools their responsibilities (the sums over m: x_m = x_n). cell = 1
// gives every pixel its own location (row/H, col/W).
type kpyp struct {
	p       *pixels
	C, D    int
	workers int
	disc    float64 // Pitman–Yor discount d: the kernel is scaled by 1 − d

	// The location lattice: GH×GW cells of cell×cell pixels (smaller at the far edges),
	// processed in chunks of chunkRows cell rows.
	cell, GH, GW, chunkRows int

	prior        nwParams
	priorLogDetW float64
	clusters     []*nwCluster
	// The clusters' E-step parameters packed flat for the pixel loop: means (C×D), the
	// factors U_c with UᵀU = νW (C×D×D) and the constants of φ (C).
	mu, u, lconst []float64

	// R is N×C: R[n·C + c] = q(z_n = c).
	R      []float64
	labels []int32

	// Cluster locations x̂_c = (locY_c, locX_c) in normalised coordinates, widths ψ_c, and
	// the separable RBF kernel at the cells: k(x_(i,j), x̂_c) = kr[i·C + c]·kc[j·C + c].
	locY, locX, width []float64
	kr, kc            []float64

	// q(α) = Gamma(eta1, eta2) (shape, rate), eqs. (46)–(49).
	eta1, eta2 float64
	// u0 is the tangent point ln ᾱ of the stick normalisers' bound (stickPrior), and sumP,
	// sumA the sums of P and A over all locations and sticks at u0.
	u0, sumP, sumA float64
	// stickFree makes the next pass compute the sticks from their prior, ignoring R.
	stickFree bool

	// learnLoc and learnWidth refine x̂_c and ψ_c by L-BFGS between passes (§3.5).
	learnLoc, learnWidth bool
	// iters counts the iterations run.
	iters int
	// skipAlpha skips the next q(α) step: set after merges, when the stick sums of the
	// last pass no longer describe q(v).
	skipAlpha bool

	// Totals of the last pass, reduced in chunk order, and the per-chunk partial sums.
	tot   []float64
	parts [][]float64
	// Per-worker scratch: 5C + D floats.
	scratch [][]float64
}

// expUnderflow is the argument below which math.Exp returns 0.
const expUnderflow = -745.2

// Layout of a pass's partial sums.
const (
	accBound   = iota // Σ_n log-normaliser of q(z_n) + Σ_cells stick terms
	accEl1v           // Σ_{cells,c<C} ⟨ln(1 − v_c(x))⟩
	accP              // Σ P (on re-tangent passes)
	accA              // Σ A (on re-tangent passes)
	accChanged        // labels that changed
	accEntropy        // Σ_n −Σ_c q(z_n = c) ln q(z_n = c)
	accStats          // then s0 (C), s1 (C×D), s2 (C×D×D)
)

func newKPYP(p *pixels, opt Options) *kpyp {
	c, d := opt.Truncation, p.D
	m := &kpyp{
		p: p, C: c, D: d, workers: opt.Workers, disc: opt.Discount,
		cell:   opt.Cell,
		prior:  newNWPrior(d),
		R:      make([]float64, p.N*c),
		labels: make([]int32, p.N),
		locY:   make([]float64, c), locX: make([]float64, c), width: make([]float64, c),
		eta1: alphaShape0, eta2: alphaRate0,
	}
	m.GH = (p.H + m.cell - 1) / m.cell
	m.GW = (p.W + m.cell - 1) / m.cell
	m.chunkRows = max(1, chunkPixels/(m.cell*p.W))
	m.kr, m.kc = make([]float64, m.GH*c), make([]float64, m.GW*c)
	m.priorLogDetW = -float64(d) * math.Log(nwSigma0*nwSigma0)
	m.mu, m.u, m.lconst = make([]float64, c*d), make([]float64, c*d*d), make([]float64, c)
	m.clusters = make([]*nwCluster, c)
	for i := range m.clusters {
		m.clusters[i] = newNWCluster(d)
	}
	for i := range m.width {
		m.width[i] = opt.Width
	}
	size := accStats + c + c*d + c*d*d
	m.tot = make([]float64, size)
	m.parts = newParts(m.numChunks(), size)
	m.scratch = make([][]float64, opt.Workers)
	for w := range m.scratch {
		m.scratch[w] = make([]float64, 5*c+d)
	}
	return m
}

// numChunks is the number of chunks of chunkRows cell rows.
func (m *kpyp) numChunks() int { return (m.GH + m.chunkRows - 1) / m.chunkRows }

// cellCentre is the normalised coordinate of the centre of cell i along an axis of n
// pixels: (first pixel + last pixel)/2 / n, which is row/H itself for 1-pixel cells.
func (m *kpyp) cellCentre(i, n int) float64 {
	lo, hi := i*m.cell, min((i+1)*m.cell, n)-1
	return float64(lo+hi) / 2 / float64(n)
}

// kernelTables fills kr and kc from the cluster locations and widths.
func (m *kpyp) kernelTables() {
	C := m.C
	for c := 0; c < C; c++ {
		inv := 1 / (m.width[c] * m.width[c])
		for i := 0; i < m.GH; i++ {
			e := m.cellCentre(i, m.p.H) - m.locY[c]
			m.kr[i*C+c] = math.Exp(-e * e * inv)
		}
		for j := 0; j < m.GW; j++ {
			e := m.cellCentre(j, m.p.W) - m.locX[c]
			m.kc[j*C+c] = math.Exp(-e * e * inv)
		}
	}
}

// kernel is the effective kernel of stick c at cell (i, j): (1 − d)·k(x, x̂_c; ψ_c),
// floored at kernelFloor.
func (m *kpyp) kernel(i, j, c int) float64 {
	return max((1-m.disc)*m.kr[i*m.C+c]*m.kc[j*m.C+c], kernelFloor)
}

// alphaMoments returns ⟨α⟩ and ⟨ln α⟩ under q(α).
func (m *kpyp) alphaMoments() (mean, meanLog float64) {
	return m.eta1 / m.eta2, mathext.Digamma(m.eta1) - math.Log(m.eta2)
}

// thetaStep sets every q(θ_c) from the responsibility statistics of the last pass,
// eq. (55).
func (m *kpyp) thetaStep() error {
	C, D := m.C, m.D
	s0 := m.tot[accStats : accStats+C]
	s1 := m.tot[accStats+C : accStats+C+C*D]
	s2 := m.tot[accStats+C+C*D:]
	for c, q := range m.clusters {
		if err := q.update(m.prior, s0[c], s1[c*D:(c+1)*D], s2[c*D*D:(c+1)*D*D]); err != nil {
			return fmt.Errorf("%w (cluster %d)", err, c)
		}
	}
	m.packClusters()
	return nil
}

// packClusters copies the clusters' E-step parameters into mu, u and lconst.
func (m *kpyp) packClusters() {
	D := m.D
	for c, q := range m.clusters {
		copy(m.mu[c*D:(c+1)*D], q.m)
		copy(m.u[c*D*D:(c+1)*D*D], q.u)
		m.lconst[c] = q.logLConst
	}
}

// expLogLiks sets a_c = e_c + φ_nc for every cluster c, where φ_nc = ⟨ln p(y_n|θ_c)⟩
// (eq. (52); PRML (10.64)–(10.65)) = const_c − ½‖U_c(y_n − m_c)‖². It returns the
// largest a_c and its cluster.
func (m *kpyp) expLogLiks(a, e, yn, diff []float64) (int, float64) {
	C, D := m.C, m.D
	best, amax := 0, math.Inf(-1)
	for c := 0; c < C; c++ {
		mu := m.mu[c*D : (c+1)*D]
		u := m.u[c*D*D : (c+1)*D*D]
		var quad float64
		if D == 3 {
			// Unrolled: the plain colour model is the common case.
			d0, d1, d2 := yn[0]-mu[0], yn[1]-mu[1], yn[2]-mu[2]
			t0 := u[0]*d0 + u[1]*d1 + u[2]*d2
			t1 := u[4]*d1 + u[5]*d2
			t2 := u[8] * d2
			quad = t0*t0 + t1*t1 + t2*t2
		} else {
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
		}
		v := e[c] + m.lconst[c] - 0.5*quad
		a[c] = v
		if v > amax {
			best, amax = c, v
		}
	}
	return best, amax
}

// alphaStep sets q(α) from the sticks of the last pass: eqs. (46)–(49) with the shape
// increment N(C−1) of (47) replaced by ΣA (see stickPrior), which it equals when k ≡ 1.
func (m *kpyp) alphaStep() {
	m.eta1 = alphaShape0 + m.sumA
	m.eta2 = alphaRate0 - m.tot[accEl1v]
}

// bound is the variational free energy (42) after a pass, with the stick normalisers'
// α-expectation replaced by its tangent lower bound.
func (m *kpyp) bound() float64 {
	_, elog := m.alphaMoments()
	b := m.tot[accBound] + m.sumP + m.sumA*(elog-m.u0)
	for _, q := range m.clusters {
		b -= q.kl(m.prior, m.priorLogDetW)
	}
	return b - gammaKL(m.eta1, m.eta2, alphaShape0, alphaRate0)
}

// pass updates, for every location, q(v(x)) from the current responsibilities (eqs.
// (43)–(45)) and then q(z_n) of its pixels (eqs. (50)–(54)), and gathers the sums the
// global steps and the bound need. When retangent is set it moves the tangent point of
// the stick normalisers' bound to the current ⟨ln α⟩ and recomputes sumP and sumA.
func (m *kpyp) pass(retangent bool) {
	alphaMean, elog := m.alphaMoments()
	alphaBar := math.Exp(elog)
	forEach(m.numChunks(), m.workers, func(w, ch int) {
		acc := m.parts[ch]
		clear(acc)
		for i := ch * m.chunkRows; i < min((ch+1)*m.chunkRows, m.GH); i++ {
			for j := 0; j < m.GW; j++ {
				m.passCell(i, j, acc, m.scratch[w], alphaMean, alphaBar, retangent)
			}
		}
		m.mirrorStats(acc)
	})
	sumChunks(m.tot, m.parts)
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
			// q(z_n = c) ∝ exp(a_c); Σ_c q(a_c − ln q) = ln Σ_c exp(a_c), and the entropy
			// −Σ_c q ln q = ln z − Σ_c q (a_c − max a) for the merge moves.
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

// iterate runs one VB iteration — q(θ) (55), q(α) (46)–(49) unless first, then the pass
// over locations and pixels (43)–(45), (50)–(54) — and returns the bound after it.
func (m *kpyp) iterate(first bool) (float64, error) {
	if err := m.thetaStep(); err != nil {
		return 0, err
	}
	if !first && !m.skipAlpha {
		m.alphaStep()
		if (m.learnLoc || m.learnWidth) && m.iters%refineEvery == 0 {
			m.refineLocations()
		}
	}
	m.iters++
	m.skipAlpha = false
	_, elog := m.alphaMoments()
	m.pass(first || math.Abs(elog-m.u0) > retangentTol)
	b := m.bound()
	if math.IsNaN(b) || math.IsInf(b, 0) {
		return b, fmt.Errorf("segment: variational bound became %v", b)
	}
	return b, nil
}

// run iterates until the bound or the labels settle. After every mergeEvery
// iterations, and when they settle, it tries merge moves (merge.go); if one is accepted
// it iterates on. It returns the bound after every iteration.
func (m *kpyp) run(ctx context.Context, opt Options) (trace []float64, err error) {
	sinceMerge := 0
	for len(trace) < opt.MaxIter {
		if err := ctx.Err(); err != nil {
			return trace, err
		}
		b, err := m.iterate(len(trace) == 0)
		if err != nil {
			return trace, fmt.Errorf("%w at iteration %d", err, len(trace)+1)
		}
		trace = append(trace, b)
		if opt.Progress != nil {
			opt.Progress(len(trace), b)
		}
		sinceMerge++
		n := len(trace)
		settled := n > 1 && m.settled(b, trace[n-2], opt.Tol)
		if !settled && sinceMerge < mergeEvery {
			continue
		}
		sinceMerge = 0
		if m.mergeRound() == 0 && settled {
			break
		}
	}
	return trace, nil
}

// mergeEvery is the number of iterations between merge rounds while the bound is still
// rising.
const mergeEvery = 5

// labelTol is the fraction of pixels whose label may still change in an iteration for
// the labels to count as settled.
const labelTol = 1e-3

// settled reports whether an iteration that took the bound from prev to b, changing
// the labels of the last pass, ends the iterations: the bound's change relative to its
// size — or to the number of pixels, where the bound is near 0 — is within tol, or
// fewer than labelTol of the pixels changed label.
func (m *kpyp) settled(b, prev, tol float64) bool {
	n := float64(m.p.N)
	return math.Abs(b-prev) <= tol*max(math.Abs(b), n) || m.tot[accChanged] <= labelTol*n
}

// initialise places the clusters and sets the first responsibilities: K-means with C
// clusters on the colour features and weighted locations (the same features as the
// "kmeans" method, seeded), clusters numbered by decreasing size so the largest gets the
// first stick, x̂_c at the mean location of its pixels, and q(θ_c) from its pixels. The
// first pass then computes the sticks from their prior and the responsibilities from
// the sticks and q(θ).
func (m *kpyp) initialise(ctx context.Context, opt Options) error {
	x, d := clusterFeatures(m.p, initLocationWeight)
	labels, _, err := kmeansLabels(ctx, x, m.p.N, d, m.C, opt.Seed, 20, m.workers, nil)
	if err != nil {
		return err
	}
	C, N, W, H := m.C, m.p.N, m.p.W, m.p.H
	count := make([]float64, C)
	for _, l := range labels {
		count[l]++
	}
	order := make([]int, C)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case count[a] > count[b]:
			return -1
		case count[a] < count[b]:
			return 1
		}
		return 0
	})
	rank := make([]int32, C)
	for r, c := range order {
		rank[c] = int32(r)
	}
	sy, sx := make([]float64, C), make([]float64, C)
	for n, l := range labels {
		c := rank[l]
		m.R[n*C+int(c)] = 1
		m.labels[n] = c
		sy[c] += float64(n/W) / float64(H)
		sx[c] += float64(n%W) / float64(W)
	}
	cols := int(math.Ceil(math.Sqrt(float64(C))))
	for r, c := range order {
		if count[c] > 0 {
			m.locY[r], m.locX[r] = sy[r]/count[c], sx[r]/count[c]
		} else {
			// An empty K-means cluster (fewer distinct pixels than C): spread on a grid.
			m.locY[r] = (float64(r/cols) + 0.5) / float64(cols)
			m.locX[r] = (float64(r%cols) + 0.5) / float64(cols)
		}
	}
	m.kernelTables()
	// θ statistics from the hard initial assignment, through the same chunked sums.
	parts := newParts(numChunks(N), len(m.tot))
	forChunks(N, m.workers, func(_, ch, lo, hi int) {
		acc := parts[ch]
		s0 := acc[accStats : accStats+C]
		s1 := acc[accStats+C : accStats+C+C*m.D]
		s2 := acc[accStats+C+C*m.D:]
		D := m.D
		for n := lo; n < hi; n++ {
			c := int(m.labels[n])
			yn := m.p.Y[n*D : (n+1)*D]
			s0[c]++
			for i := 0; i < D; i++ {
				s1[c*D+i] += yn[i]
				for j := 0; j < D; j++ {
					s2[c*D*D+i*D+j] += yn[i] * yn[j]
				}
			}
		}
	})
	sumChunks(m.tot, parts)
	m.stickFree = true
	return nil
}
