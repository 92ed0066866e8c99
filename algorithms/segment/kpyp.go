package segment

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"

	"featurelab/internal/parallel"
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
	// atom[c] is the colour model cluster c shares (colours.go); clusters pointing to
	// one atom have the same q(θ).
	atom []int
	// The clusters' E-step parameters packed flat for the pixel loop: means (C×D), the
	// factors U_c with UᵀU = νW (C×D×D) and the constants of φ (C); for D = 3 also as
	// one record per cluster.
	mu, u, lconst []float64
	lik3          []lik3

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
	// stickFree makes the next pass compute the sticks from their prior, ignoring R:
	// the first pass, whose R holds K-means' hard labels, which as counts would lock
	// every cell to its K-means cluster.
	stickFree bool

	// learnLoc and learnWidth refine x̂_c and ψ_c between passes (§3.5, locations.go).
	learnLoc, learnWidth bool
	// geo, when set, holds the geodesic kernel distance (geodesic.go), which then
	// replaces the Euclidean one of kr and kc.
	geo *geodesic
	// power is the likelihood's power ζ (Options.Power).
	power float64
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

// Layout of a pass's partial sums.
const (
	accBound   = iota // Σ_n log-normaliser of q(z_n) + Σ_cells stick terms
	accEl1v           // Σ_{cells,c<C} ⟨ln(1 − v_c(x))⟩
	accP              // Σ P (on re-tangent passes)
	accA              // Σ A (on re-tangent passes)
	accChanged        // labels that changed
	accEntropy        // Σ_n −Σ_c q(z_n = c) ln q(z_n = c), for the tests
	accStats          // then s0 (C), s1 (C×D), s2 (C×D×D)
)

func newKPYP(p *pixels, opt Options) *kpyp {
	c, d := opt.Truncation, p.D
	m := &kpyp{
		p: p, C: c, D: d, workers: opt.Workers, disc: opt.Discount,
		cell: opt.Cell,
		// The prior's pseudo-pixels scale with the ζN observations the pixels count as,
		// so ζ does not change the balance of prior and data in q(θ).
		prior:  newNWPrior(d, nwPseudo*opt.Power*float64(p.N)/float64(c)),
		power:  opt.Power,
		R:      make([]float64, p.N*c),
		labels: make([]int32, p.N),
		locY:   make([]float64, c), locX: make([]float64, c), width: make([]float64, c),
		eta1: alphaShape0, eta2: alphaRate0,
	}
	m.GH = (p.H + m.cell - 1) / m.cell
	m.GW = (p.W + m.cell - 1) / m.cell
	m.chunkRows = max(1, parallel.ChunkRows/(m.cell*p.W))
	m.kr, m.kc = make([]float64, m.GH*c), make([]float64, m.GW*c)
	if opt.Distance == DistanceGeodesic {
		m.geo = newGeodesic(m, opt.EdgeCost)
	}
	m.priorLogDetW = m.prior.logDetW()
	m.mu, m.u, m.lconst = make([]float64, c*d), make([]float64, c*d*d), make([]float64, c)
	m.clusters = make([]*nwCluster, c)
	m.atom = make([]int, c)
	for i := range m.clusters {
		m.clusters[i] = newNWCluster(d)
		m.atom[i] = i
	}
	for i := range m.width {
		m.width[i] = opt.Width
	}
	size := accStats + c + c*d + c*d*d
	m.tot = make([]float64, size)
	m.parts = parallel.NewParts(m.numChunks(), size)
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

// cellOf is the cell of fitted pixel n.
func (m *kpyp) cellOf(n int) int {
	return n/m.p.W/m.cell*m.GW + n%m.p.W/m.cell
}

// kernelTables fills kr and kc from the cluster locations and widths.
func (m *kpyp) kernelTables() {
	if m.geo != nil {
		m.geoTables()
		return
	}
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
	if m.geo != nil {
		return m.geo.kern[(i*m.GW+j)*m.C+c]
	}
	return max((1-m.disc)*m.kr[i*m.C+c]*m.kc[j*m.C+c], kernelFloor)
}

// alphaMoments returns ⟨α⟩ and ⟨ln α⟩ under q(α).
func (m *kpyp) alphaMoments() (mean, meanLog float64) {
	return m.eta1 / m.eta2, mathext.Digamma(m.eta1) - math.Log(m.eta2)
}

// thetaStep sets every colour model q(θ_a) from the responsibility statistics of the
// last pass pooled over the clusters that share it, eq. (55) — but the last
// component's q(θ_C), which stays at the prior (tailStats).
func (m *kpyp) thetaStep() error {
	for _, set := range m.atomSets() {
		if len(set) == 0 {
			continue
		}
		n, m1, m2 := m.setStats(m.tot, set)
		n, m1, m2 = m.tailStats(set, n, m1, m2)
		for _, c := range set {
			if err := m.clusters[c].update(m.prior, n, m1, m2); err != nil {
				return fmt.Errorf("%w (cluster %d)", err, c)
			}
		}
	}
	m.packClusters()
	return nil
}

// tailStats returns the statistics the colour model of the clusters of set is updated
// from: their own, or none for the last component's, so that its q(θ_C) is the prior
// p(θ).
//
// Why: the last component has v_C ≡ 1 and no location. It stands for every cluster
// beyond the truncation, each at a location of its own, and its prior weight
// ∏_{c<C}(1 − v_c(x)) is near 1 wherever the located sticks' kernels are small. Fitted
// like the others, it becomes a cluster free of the spatial prior — often the largest,
// in pieces across the photo — and the bound refuses to hand any of those pieces to an
// empty located cluster (for each large piece the stick and covariance terms cost far
// more than it gains). At its prior, as
// the clusters beyond the truncation are in Kurihara, Welling & Vlassis (NIPS 2006), it
// explains only what no located cluster fits, and a colour spread over the photo must
// be held by located clusters, whose far pieces the split moves can part. Holding one
// factor of the mean-field family fixed keeps every update an ascent step: the bound
// still never falls. On the BSDS500 train photos it keeps PRI within the seeds' spread
// and lowers VoI with every seed, and it makes a larger truncation pay
// (DefaultTruncation; docs/DESIGN.md, "Measurements behind the code").
func (m *kpyp) tailStats(set []int, n float64, m1, m2 []float64) (float64, []float64, []float64) {
	if !m.isTail(set) {
		return n, m1, m2
	}
	return 0, make([]float64, len(m1)), make([]float64, len(m2))
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
	// Each colour model's KL counts once, however many clusters share it.
	for _, set := range m.atomSets() {
		if len(set) > 0 {
			b -= m.clusters[set[0]].kl(m.prior, m.priorLogDetW)
		}
	}
	return b + atomPrior(m.atom) - gammaKL(m.eta1, m.eta2, alphaShape0, alphaRate0)
}

// iterate runs one VB iteration — q(θ) (55), q(α) (46)–(49) unless first, then the pass
// over locations and pixels (43)–(45), (50)–(54) — and returns the bound after it.
func (m *kpyp) iterate(first bool) (float64, error) {
	if err := m.thetaStep(); err != nil {
		return 0, err
	}
	if !first && !m.skipAlpha {
		m.alphaStep()
		if m.iters%refineEvery == 0 {
			switch {
			case m.geo != nil:
				m.geoRefine()
			case m.learnLoc || m.learnWidth:
				m.refineLocations()
			}
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
		if opt.Settling != nil {
			opt.Settling(m.tot[accChanged] / float64(m.p.N))
		}
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
		if m.mergeRound()+m.splitRound() == 0 && settled {
			break
		}
	}
	return trace, nil
}

// mergeEvery is the number of iterations between merge rounds while the bound is still
// rising.
const mergeEvery = 5

// LabelTol is the fraction of pixels whose label may still change in an iteration for
// the labels to count as settled.
const LabelTol = 5e-3

// settled reports whether an iteration that took the bound from prev to b, changing
// the labels of the last pass, ends the iterations: the bound's change relative to its
// size — or to the number of pixels, where the bound is near 0 — is within tol, or
// fewer than LabelTol of the pixels changed label.
func (m *kpyp) settled(b, prev, tol float64) bool {
	n := float64(m.p.N)
	return math.Abs(b-prev) <= tol*max(math.Abs(b), n) || m.tot[accChanged] <= LabelTol*n
}
