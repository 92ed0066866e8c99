package segment

import (
	"math"
	"slices"
)

// Split moves (with the geodesic distance). Mean-field from a K-means start cannot open
// a cluster: a dark background that also holds a dark detail inside an object, across
// edges from the rest of it, keeps it, since no other cluster fits its colour. A split
// move hands the responsibilities of a cluster in one connected piece of its label apart
// from the one it is located in (pixelPieces; for the last component, a piece of the cells
// it holds, tailPieces) to the smallest other cluster with a stick,
// relocated into the piece, with a colour model of its own or sharing c's (splitColour).
// Like a merge it is kept only if the bound of the moved state, with q(v) and q(θ) at
// their optima for the moved responsibilities and q(α) unchanged, beats that of the
// state before (screen, merge.go). The screen is exact: the stick terms of the sticks
// between the two clusters, the terms of the colour models the move touches, the
// pointers' prior, and the entropy of q(z) where the target already had responsibility
// (TestSplitScreenIsExact).
//
// With the Euclidean kernel the bound refuses nearly every such split: a piece far from
// x̂_c still has a kernel near 1/e. Across edges the geodesic kernel is near its floor,
// which the piece's cells pay for in every iteration, and the split pays off.

// splitMinCount is the least responsibility a piece must hold to be split off.
const splitMinCount = 4.0

// pixelPiecesTried caps the pieces of one cluster tried in a round, the largest first:
// each costs a geodesic distance map over the fitted pixels. Trying more pieces costs
// several times the time on a camera photo (BenchmarkKPYPCameraPhoto) and scores the
// same on the BSDS500 train photos (docs/DESIGN.md, "Measurements behind the code").
const pixelPiecesTried = 2

// splitRound tries, for every cluster, to split off its far pieces in turn
// until one is kept; a cluster a split made or cut is not tried again in the round. It
// returns the number of splits kept.
func (m *kpyp) splitRound() int {
	if m.geo == nil {
		return 0
	}
	C := m.C
	s0 := m.tot[accStats : accStats+C]
	sc := m.newScreen()
	kept := 0
	used := make([]bool, C) // clusters a split of this round made or cut
	comp := labelComponents(m.labels, m.p.W, m.p.H)
	// s0 holds the tempered counts ζ·Σr; the pieces' counts are plain Σr.
	for c := 0; c < C; c++ {
		if s0[c] < m.power*splitMinCount || used[c] {
			continue
		}
		var pieces [][]int
		if c < C-1 {
			pieces = m.pixelPieces(comp, c)
		} else {
			pieces = m.tailPieces(sc)
		}
		for _, piece := range pieces {
			moved := m.movedCounts(piece, c)
			held, loc, most := 0.0, 0, 0.0
			for x, v := range moved {
				held += v
				if v > most {
					loc, most = x, v
				}
			}
			// The piece goes to the smallest other cluster with a stick: one that is
			// empty, or nearly, for whose few pixels elsewhere the bound accounts.
			e := -1
			for o := 0; o < C-1; o++ {
				if o != c && !used[o] && (e < 0 || s0[o] < s0[e]) {
					e = o
				}
			}
			if e < 0 || held < splitMinCount || s0[e] >= m.power*held {
				continue
			}
			if m.trySplit(sc, c, e, piece, loc) {
				used[c], used[e] = true, true
				kept++
				break
			}
		}
	}
	if kept > 0 {
		// As after merges: q(α) must not move on sums of the sticks before the split.
		m.skipAlpha = true
		m.u0 = math.Inf(1)
	}
	return kept
}

// tailPieces returns the pieces of the last component a split may part from it, as
// lists of their pixels: the 4-connected pieces of the cells where it holds at least
// half a pixel. It has no location, so every piece is far.
func (m *kpyp) tailPieces(sc *screen) [][]int {
	C, cells := m.C, m.GH*m.GW
	far := func(x int) bool { return sc.counts[x*C+C-1] > 0.5 }
	seen := make([]bool, cells)
	var pieces [][]int
	for start := 0; start < cells; start++ {
		if seen[start] || !far(start) {
			continue
		}
		seen[start] = true
		piece := []int{start}
		for k := 0; k < len(piece); k++ {
			i, j := piece[k]/m.GW, piece[k]%m.GW
			for _, nb := range [4][2]int{{i - 1, j}, {i + 1, j}, {i, j - 1}, {i, j + 1}} {
				if nb[0] < 0 || nb[0] >= m.GH || nb[1] < 0 || nb[1] >= m.GW {
					continue
				}
				if o := nb[0]*m.GW + nb[1]; !seen[o] && far(o) {
					seen[o] = true
					piece = append(piece, o)
				}
			}
		}
		var px []int
		m.forPiece(piece, func(n int) { px = append(px, n) })
		pieces = append(pieces, px)
	}
	return pieces
}

// trySplit moves cluster c's responsibilities at the pixels of piece to cluster e,
// located at cell loc, if that raises the bound, and reports whether it did.
func (m *kpyp) trySplit(sc *screen, c, e int, piece []int, loc int) bool {
	gain, apply := m.splitGain(sc, c, e, piece, loc)
	if !(gain > 0) {
		return false
	}
	apply()
	return true
}

// splitGain returns the change of the bound if cluster c's responsibilities at the
// pixels of piece moved to cluster e, located at cell loc, and the function that makes
// the move.
func (m *kpyp) splitGain(sc *screen, c, e int, piece []int, loc int) (float64, func()) {
	C, D := m.C, m.D
	cells := m.GH * m.GW
	moved := m.movedCounts(piece, c)
	// The statistics after the move, tempered as a pass's are.
	tot := append([]float64(nil), m.tot...)
	s0 := tot[accStats : accStats+C]
	s1 := tot[accStats+C : accStats+C+C*D]
	s2 := tot[accStats+C+C*D:]
	for _, n := range piece {
		r := m.R[n*C+c] * m.power
		if r == 0 {
			continue
		}
		yn := m.p.Y[n*D : (n+1)*D]
		s0[c] -= r
		s0[e] += r
		for a := 0; a < D; a++ {
			s1[c*D+a] -= r * yn[a]
			s1[e*D+a] += r * yn[a]
			for b := 0; b < D; b++ {
				s2[c*D*D+a*D+b] -= r * yn[a] * yn[b]
				s2[e*D*D+a*D+b] += r * yn[a] * yn[b]
			}
		}
	}
	// The entropy of q(z) changes only where e already had responsibility.
	var entropy float64
	for _, n := range piece {
		rc, re := m.R[n*C+c], m.R[n*C+e]
		if rc > 0 && re > 0 {
			r := rc + re
			entropy += -r*math.Log(r) + rc*math.Log(rc) + re*math.Log(re)
		}
	}
	dist := make([]float64, cells)
	m.cellDistances(loc, dist, 1)
	// Sticks lo..hi−1 change (stick C has none).
	lo, hi := min(c, e), min(max(c, e)+1, C-1)
	cnt := make([]float64, C)
	var gain float64
	for cell := 0; cell < cells; cell++ {
		copy(cnt, sc.counts[cell*C:(cell+1)*C])
		if v := moved[cell]; v > 0 {
			cnt[e] += v
			cnt[c] = max(0, cnt[c]-v)
		}
		var t float64
		for _, v := range cnt[hi:] {
			t += v
		}
		for s := hi - 1; s >= lo; s-- {
			k := m.geo.kern[cell*C+s]
			switch {
			case s == e:
				k = m.geoKernel(dist[cell], m.width[e])
				gain += stickTerm(k, cnt[s], t, s+1, sc.alphaMean, sc.alphaBar)
			case s == c && moved[cell] > 0:
				gain += stickTerm(k, cnt[s], t, s+1, sc.alphaMean, sc.alphaBar)
			default: // only the later counts change, if any
				gain += sc.fixed[cell*(C-1)+s] + stickRest(k, cnt[s], t, s+1, sc.alphaMean)
			}
			gain -= sc.sticks[cell*(C-1)+s]
			t += cnt[s]
		}
	}
	// e takes a colour model of its own or, for a located cluster, shares c's,
	// whichever the bound prefers.
	ptr, touched, theta := m.splitColour(sc, tot, c, e)
	gain += entropy
	for i, a := range touched {
		gain += theta[i] - sc.theta[a]
	}
	gain += atomPrior(ptr) - atomPrior(m.atom)
	// The move keeps what the screen computed: the statistics, distances and terms.
	apply := func() {
		for _, n := range piece {
			m.R[n*C+e] += m.R[n*C+c]
			m.R[n*C+c] = 0
			if m.labels[n] == int32(c) {
				m.labels[n] = int32(e)
			}
		}
		for x, v := range moved {
			if v > 0 {
				cnt := sc.counts[x*C : (x+1)*C]
				cnt[e] += v
				cnt[c] = max(0, cnt[c]-v)
			}
		}
		tot[accEntropy] += entropy
		copy(m.tot, tot)
		m.geo.loc[e] = loc
		for cell, d := range dist {
			m.geo.dist[cell*C+e] = d
		}
		m.geoKernelColumn(e)
		copy(m.atom, ptr)
		for i, a := range touched {
			sc.theta[a] = theta[i]
		}
		m.screenSticks(sc, lo, hi)
	}
	return gain, apply
}

// splitColour chooses the colour model of cluster e when it takes a piece of c, with
// the statistics after the move in tot: a new one of its own or, unless c is the last
// component, c's. It returns the pointers after the move, the atoms whose terms change
// and their new terms.
func (m *kpyp) splitColour(sc *screen, tot []float64, c, e int) (ptr, touched []int, theta []float64) {
	variant := func(to int) ([]int, []int, []float64, float64) {
		p := slices.Clone(m.atom)
		p[e] = to
		t := []int{m.atom[c]}
		for _, a := range []int{m.atom[e], to} {
			if !slices.Contains(t, a) {
				t = append(t, a)
			}
		}
		th := make([]float64, len(t))
		gain := atomPrior(p)
		for i, a := range t {
			th[i] = m.atomTheta(sc, tot, members(p, a))
			gain += th[i] - sc.theta[a]
		}
		return p, t, th, gain
	}
	ptr, touched, theta, best := variant(freeAtom(m.atom, e))
	if c < m.C-1 {
		if p, t, th, g := variant(m.atom[c]); g > best {
			ptr, touched, theta = p, t, th
		}
	}
	return ptr, touched, theta
}

// forPiece calls f with every fitted pixel of the cells of piece.
func (m *kpyp) forPiece(piece []int, f func(n int)) {
	W := m.p.W
	for _, x := range piece {
		i, j := x/m.GW, x%m.GW
		for y := i * m.cell; y < min((i+1)*m.cell, m.p.H); y++ {
			for xx := j * m.cell; xx < min((j+1)*m.cell, W); xx++ {
				f(y*W + xx)
			}
		}
	}
}

// labelComponents numbers the 4-connected components of equal labels of a W×H label
// map.
func labelComponents(labels []int32, W, H int) []int32 {
	comp := make([]int32, len(labels))
	for i := range comp {
		comp[i] = -1
	}
	var next int32
	var stack []int
	for s := range labels {
		if comp[s] >= 0 {
			continue
		}
		comp[s] = next
		stack = append(stack[:0], s)
		visit := func(n, o int) {
			if comp[o] < 0 && labels[o] == labels[n] {
				comp[o] = next
				stack = append(stack, o)
			}
		}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			y, x := n/W, n%W
			if y > 0 {
				visit(n, n-W)
			}
			if y < H-1 {
				visit(n, n+W)
			}
			if x > 0 {
				visit(n, n-1)
			}
			if x < W-1 {
				visit(n, n+1)
			}
		}
		next++
	}
	return comp
}

// homeComponents returns the components of label c (comp numbers the label map's) that
// touch its location cell — or, if none does, its largest.
func (m *kpyp) homeComponents(comp []int32, c int) map[int32]bool {
	home := map[int32]bool{}
	m.forPiece([]int{m.geo.loc[c]}, func(n int) {
		if m.labels[n] == int32(c) {
			home[comp[n]] = true
		}
	})
	if len(home) == 0 {
		size := map[int32]int{}
		for n, l := range m.labels {
			if l == int32(c) {
				size[comp[n]]++
			}
		}
		best, largest := 0, int32(-1)
		for k, v := range size {
			if v > best || (v == best && k < largest) {
				best, largest = v, k
			}
		}
		home[largest] = true
	}
	return home
}

// movedCounts returns, for every cell, cluster c's responsibility over the pixels of
// piece that lie in it.
func (m *kpyp) movedCounts(piece []int, c int) []float64 {
	moved := make([]float64, m.GH*m.GW)
	for _, n := range piece {
		moved[m.cellOf(n)] += m.R[n*m.C+c]
	}
	return moved
}

// pixelPieces returns the pieces of located cluster c a split may part from it: the
// 4-connected components of its label that are not home (homeComponents), of at least
// a cell's worth of pixels, the pixelPiecesTried largest first.
//
// Why pixels: a cluster's label can be in separate places, what a user counts as
// separate segments. Pieces of cells — where c holds most pixels — missed those that
// share cells with other clusters, and with the colour shared they cut connected
// regions along cell edges (a uniform background into two blocky halves). Pieces of
// pixels score a lower VoI on the BSDS500 train photos with every seed
// (docs/DESIGN.md, "Measurements behind the code").
func (m *kpyp) pixelPieces(comp []int32, c int) [][]int {
	home := m.homeComponents(comp, c)
	byComp := map[int32][]int{}
	for n, l := range m.labels {
		if l == int32(c) && !home[comp[n]] {
			byComp[comp[n]] = append(byComp[comp[n]], n)
		}
	}
	var pieces [][]int
	for _, px := range byComp {
		if len(px) >= m.cell*m.cell {
			pieces = append(pieces, px)
		}
	}
	slices.SortFunc(pieces, func(a, b []int) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return a[0] - b[0]
	})
	if len(pieces) > pixelPiecesTried {
		pieces = pieces[:pixelPiecesTried]
	}
	return pieces
}
