package segment

import (
	"math"
	"slices"

	"featurelab/internal/parallel"
)

// Merge moves. Mean-field updates from a K-means start with C clusters stop in local
// optima where one region is held by several clusters of the same colour: the sticks of
// a location are informed only by its own pixels, so whichever cluster holds a cell
// keeps it. A merge move (Ueda et al. 2000; Hughes & Sudderth 2013) hands all of cluster
// b's responsibilities to cluster a < b and moves x̂_a to the centre of both. It is kept
// only if the bound of the merged state — with q(v) and q(θ) at their optima for the
// merged responsibilities, q(α) unchanged — beats that of the unmerged state, so the
// bound never decreases. That bound needs no pass over the pixels (screenGain):
//
//   - with q(v) optimal for the counts n_c(x) of each location, the stick terms and
//     Σ_n Σ_c q(z_n = c)⟨ln ϖ_c(x_n)⟩ add up to Σ_x Σ_{c<C} [ln B(β̃, β̂) + P(k)];
//   - Σ_n q(z_n = c)⟨ln p(y_n|θ_c)⟩ follows from the responsibility-weighted moments;
//   - the entropy of q(z) changes only in the two merged columns.

// mergeMaxDist is the largest squared Mahalanobis distance between two clusters' means,
// under their average covariance, for them to be tried as a merge: only a speed-up,
// since the bound decides. With the likelihood's power 0.5 the bound accepts merges of
// clusters far apart (a textured region's shades), so the distance tried is wide: on
// the BSDS500 train photos it scores a lower VoI than a narrower one and runs faster,
// with fewer clusters to iterate, and a wider one gives the same labels
// (docs/DESIGN.md, "Measurements behind the code").
const mergeMaxDist = 200.0

// mergeMaxTrials·C caps the merges tried per round, closest colours first.
const mergeMaxTrials = 4

// mergePair is a candidate merge of cluster b into cluster a < b.
type mergePair struct {
	a, b int
	dist float64
}

// mergeCandidates lists pairs of clusters that touch in the label map and whose colours
// are within mergeMaxDist, closest first.
func (m *kpyp) mergeCandidates() []mergePair {
	C, W, H := m.C, m.p.W, m.p.H
	touch := make([]bool, C*C)
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			l := m.labels[y*W+x]
			if x+1 < W {
				if r := m.labels[y*W+x+1]; r != l {
					touch[int(l)*C+int(r)], touch[int(r)*C+int(l)] = true, true
				}
			}
			if y+1 < H {
				if d := m.labels[(y+1)*W+x]; d != l {
					touch[int(l)*C+int(d)], touch[int(d)*C+int(l)] = true, true
				}
			}
		}
	}
	var pairs []mergePair
	for a := 0; a < C; a++ {
		for b := a + 1; b < C; b++ {
			if !touch[a*C+b] {
				continue
			}
			if d := m.clusters[a].mahalanobis(m.clusters[b]); d <= mergeMaxDist {
				pairs = append(pairs, mergePair{a, b, d})
			}
		}
	}
	slices.SortStableFunc(pairs, func(p, q mergePair) int {
		switch {
		case p.dist < q.dist:
			return -1
		case p.dist > q.dist:
			return 1
		}
		return 0
	})
	return pairs
}

// screen holds what screenGain needs, for the responsibilities as they are.
type screen struct {
	counts              []float64 // GH·GW×C responsibilities per cell
	sticks              []float64 // GH·GW×(C−1) stick terms ln B(β̃, β̂) + P(k) per cell
	fixed               []float64 // GH·GW×(C−1) their parts stickFixed (own kernel and count only)
	theta               []float64 // C, by atom: Σ_n q(z_n ∈ a)⟨ln p(y_n|θ_a)⟩ − KL(q(θ_a)‖p(θ_a)) at q(θ_a)'s optimum
	rows                []float64 // GH partial sums, added in row order
	q                   *nwCluster
	alphaMean, alphaBar float64
}

// newScreen prepares the screen of the current responsibilities.
func (m *kpyp) newScreen() *screen {
	_, elog := m.alphaMoments()
	sc := &screen{
		counts:    m.cellCounts(),
		sticks:    make([]float64, m.GH*m.GW*(m.C-1)),
		fixed:     make([]float64, m.GH*m.GW*(m.C-1)),
		theta:     make([]float64, m.C),
		rows:      make([]float64, m.GH),
		q:         newNWCluster(m.D),
		alphaMean: m.eta1 / m.eta2, alphaBar: math.Exp(elog),
	}
	m.screenSticks(sc, 0, m.C-1)
	for a, set := range m.atomSets() {
		sc.theta[a] = m.atomTheta(sc, m.tot, set)
	}
	return sc
}

// screenSticks recomputes the stick terms of sticks lo..hi−1 of every cell.
func (m *kpyp) screenSticks(sc *screen, lo, hi int) {
	C := m.C
	parallel.For(m.workers, m.GH, func(_, i int) {
		for j := 0; j < m.GW; j++ {
			cell := i*m.GW + j
			cnt := sc.counts[cell*C : (cell+1)*C]
			var t float64
			for _, v := range cnt[hi:] {
				t += v
			}
			for c := hi - 1; c >= lo; c-- {
				k := m.kernel(i, j, c)
				f := stickFixed(k, cnt[c], c+1, sc.alphaBar)
				sc.fixed[cell*(C-1)+c] = f
				sc.sticks[cell*(C-1)+c] = f + stickRest(k, cnt[c], t, c+1, sc.alphaMean)
				t += cnt[c]
			}
		}
	})
}

// stickTerm is ln B(β̃, β̂) + P(k) for stick c (1-based) of a location with count n and
// later counts t: stickFixed + stickRest.
func stickTerm(k, n, t float64, c int, alphaMean, alphaBar float64) float64 {
	return stickFixed(k, n, c, alphaBar) + stickRest(k, n, t, c, alphaMean)
}

// stickFixed is the part of stickTerm that the later counts t do not change:
// ln Γ(β̃) + P(k), β̃ = k + n. A screened move changes the later counts of every stick
// between the two clusters it joins or parts, but the kernel and count of few, so the
// screens keep this part (screen.fixed) and compute two ln Γ for most sticks, not six.
func stickFixed(k, n float64, c int, alphaBar float64) float64 {
	s := float64(c) * (1 - k)
	return lgamma(k+n) + lgamma(alphaBar+s+k) - lgamma(alphaBar+s) - lgamma(k)
}

// stickRest is the rest of stickTerm, ln Γ(β̂) − ln Γ(β̃ + β̂), β̂ = ᾱ + c(1 − k) + t.
func stickRest(k, n, t float64, c int, alphaMean float64) float64 {
	bh := alphaMean + float64(c)*(1-k) + t
	return lgamma(bh) - lgamma(k+n+bh)
}

// atomTheta is the likelihood and KL terms of the colour model shared by the clusters
// of set, at q(θ)'s optimum for their pooled statistics in tot (laid out as a pass's);
// 0 for an empty set, whose model is the prior and explains nothing.
func (m *kpyp) atomTheta(sc *screen, tot []float64, set []int) float64 {
	if len(set) == 0 {
		return 0
	}
	D := m.D
	n, m1, m2 := m.setStats(tot, set)
	q := sc.q
	// The likelihood below is of the moments themselves, under q(θ) as thetaStep sets it.
	qn, q1, q2 := m.tailStats(set, n, m1, m2)
	if err := q.update(m.prior, qn, q1, q2); err != nil {
		return math.Inf(-1)
	}
	// Σ_n r_n ν(y_n − m)ᵀW(y_n − m) = ν tr(W (S2 − m s1ᵀ − s1 mᵀ + s0 m mᵀ)).
	var tr float64
	for i := 0; i < D; i++ {
		for j := 0; j < D; j++ {
			mij := m2[i*D+j] - q.m[i]*m1[j] - m1[i]*q.m[j] + n*q.m[i]*q.m[j]
			tr += q.w[j*D+i] * mij
		}
	}
	return n*q.logLConst - 0.5*q.nu*tr - q.kl(m.prior, m.priorLogDetW)
}

// screenGain is the bound of the current responsibilities with cluster b merged into a
// at location (ly, lx) — or, with kb ≥ 0, with the geodesic kernel of cluster kb —
// minus that of the unmerged ones, without the change of the entropy of q(z)
// (mergeEntropy): the change of the stick terms of sticks a..b and of clusters a and
// b's terms.
func (m *kpyp) screenGain(sc *screen, a, b int, ly, lx float64, kb int) float64 {
	C := m.C
	hi := min(b+1, C-1) // sticks a..b change (stick C has none)
	inv := 1 / (m.width[a] * m.width[a])
	parallel.For(m.workers, m.GH, func(_, i int) {
		var row float64
		ey := m.cellCentre(i, m.p.H) - ly
		for j := 0; j < m.GW; j++ {
			cell := i*m.GW + j
			cnt := sc.counts[cell*C : (cell+1)*C]
			var t float64
			for c := hi; c < C; c++ {
				if c != b {
					t += cnt[c]
				}
			}
			for c := hi - 1; c >= a; c-- {
				n := cnt[c]
				k := m.kernel(i, j, c)
				switch c {
				case b:
					n = 0
					row += stickTerm(k, n, t, c+1, sc.alphaMean, sc.alphaBar)
				case a:
					n += cnt[b]
					if kb >= 0 {
						k = m.geo.kern[cell*C+kb]
					} else {
						ex := m.cellCentre(j, m.p.W) - lx
						k = max((1-m.disc)*math.Exp(-(ey*ey+ex*ex)*inv), kernelFloor)
					}
					row += stickTerm(k, n, t, c+1, sc.alphaMean, sc.alphaBar)
				default: // only the later counts change
					row += sc.fixed[cell*(C-1)+c] + stickRest(k, n, t, c+1, sc.alphaMean)
				}
				row -= sc.sticks[cell*(C-1)+c]
				t += n
			}
		}
		sc.rows[i] = row
	})
	var gain float64
	for _, r := range sc.rows {
		gain += r
	}
	// b's statistics move from its colour model to a's; b keeps its pointer, empty.
	A, B := m.atom[a], m.atom[b]
	if A == B {
		return gain
	}
	setA := append(members(m.atom, A), b)
	setB := slices.DeleteFunc(members(m.atom, B), func(c int) bool { return c == b })
	return gain + m.atomTheta(sc, m.tot, setA) + m.atomTheta(sc, m.tot, setB) - sc.theta[A] - sc.theta[B]
}

// mergeEntropy is the change of the entropy of q(z) when column b joins column a:
// Σ_n h(r_a + r_b) − h(r_a) − h(r_b), h(r) = −r ln r. It is never positive.
func (m *kpyp) mergeEntropy(a, b int) float64 {
	C := m.C
	parts := make([]float64, parallel.NumChunks(m.p.N))
	parallel.ForChunks(m.p.N, m.workers, func(_, ch, lo, hi int) {
		var s float64
		for n := lo; n < hi; n++ {
			ra, rb := m.R[n*C+a], m.R[n*C+b]
			if ra > 0 && rb > 0 {
				r := ra + rb
				s += -r*math.Log(r) + ra*math.Log(ra) + rb*math.Log(rb)
			}
		}
		parts[ch] = s
	})
	var s float64
	for _, v := range parts {
		s += v
	}
	return s
}

// mergeRound tries every merge candidate in turn against the bound of the state as it
// is then and applies those that raise it. A cluster emptied by a merge is not tried
// again. It returns the number of merges applied.
func (m *kpyp) mergeRound() int {
	if m.C < 2 {
		return 0
	}
	pairs := m.mergeCandidates()
	if len(pairs) == 0 {
		return 0
	}
	sc := m.newScreen()
	C := m.C
	emptied := make([]bool, C)
	accepted := 0
	if len(pairs) > mergeMaxTrials*C {
		pairs = pairs[:mergeMaxTrials*C]
	}
	for _, pr := range pairs {
		a, b := pr.a, pr.b
		if emptied[a] || emptied[b] {
			continue
		}
		// x̂_a moves to the centre of the cells' merged counts.
		var sy, sx, s float64
		for i := 0; i < m.GH; i++ {
			for j := 0; j < m.GW; j++ {
				cnt := sc.counts[(i*m.GW+j)*C:]
				r := cnt[a] + cnt[b]
				sy += r * m.cellCentre(i, m.p.H)
				sx += r * m.cellCentre(j, m.p.W)
				s += r
			}
		}
		ly, lx := m.locY[a], m.locX[a]
		if s > 0 {
			ly, lx = sy/s, sx/s
		}
		// The entropy can only fall, so a merge that does not gain without it is out
		// before the pass over the pixels that computes it.
		kb := -1
		var gain float64
		if m.geo != nil {
			// The merged stick keeps the location cell of a or takes b's, whichever
			// the bound prefers.
			ga, gb := m.screenGain(sc, a, b, ly, lx, a), m.screenGain(sc, a, b, ly, lx, b)
			kb, gain = a, ga
			if gb > ga {
				kb, gain = b, gb
			}
		} else {
			gain = m.screenGain(sc, a, b, ly, lx, -1)
		}
		if !(gain > 0) || !(gain+m.mergeEntropy(a, b) > 0) {
			continue
		}
		m.merge(a, b, ly, lx, kb)
		for cell := 0; cell < m.GH*m.GW; cell++ {
			cnt := sc.counts[cell*C : (cell+1)*C]
			cnt[a] += cnt[b]
			cnt[b] = 0
		}
		m.screenSticks(sc, a, min(b+1, C-1))
		sc.theta[m.atom[a]] = m.atomTheta(sc, m.tot, members(m.atom, m.atom[a]))
		sc.theta[m.atom[b]] = m.atomTheta(sc, m.tot, members(m.atom, m.atom[b]))
		emptied[b] = true
		accepted++
	}
	if accepted > 0 {
		// The state now has q(v) and q(θ) at their optima for the merged
		// responsibilities; the next iteration recomputes both and must not move q(α)
		// on sums that belong to the sticks before the merge.
		m.skipAlpha = true
		m.u0 = math.Inf(1)
	}
	return accepted
}

// merge moves cluster b's responsibilities, labels and statistics into cluster a and
// puts x̂_a at (ly, lx) — or, with the geodesic distance, at the location cell of kb
// (a or b).
func (m *kpyp) merge(a, b int, ly, lx float64, kb int) {
	C, D := m.C, m.D
	for n := 0; n < m.p.N; n++ {
		m.R[n*C+a] += m.R[n*C+b]
		m.R[n*C+b] = 0
		if m.labels[n] == int32(b) {
			m.labels[n] = int32(a)
		}
	}
	if m.geo == nil {
		m.locY[a], m.locX[a] = ly, lx
		m.kernelTables()
	} else if kb == b {
		// The merged stick takes b's location cell, distances and width.
		m.geo.loc[a], m.width[a] = m.geo.loc[b], m.width[b]
		for cell := 0; cell < m.GH*m.GW; cell++ {
			m.geo.dist[cell*C+a] = m.geo.dist[cell*C+b]
		}
		m.geoKernelColumn(a)
	}
	s0 := m.tot[accStats : accStats+C]
	s1 := m.tot[accStats+C : accStats+C+C*D]
	s2 := m.tot[accStats+C+C*D:]
	s0[a] += s0[b]
	s0[b] = 0
	for i := 0; i < D; i++ {
		s1[a*D+i] += s1[b*D+i]
		s1[b*D+i] = 0
	}
	for i := 0; i < D*D; i++ {
		s2[a*D*D+i] += s2[b*D*D+i]
		s2[b*D*D+i] = 0
	}
}
