package segment

import (
	"cmp"
	"math"
	"slices"
)

// The geodesic kernel distance (Options.Distance "geodesic"). The paper's kernel
// k(x, x̂_c; ψ_c) = exp(−dist(x, x̂_c)²/ψ_c²) leaves dist open. With the Euclidean
// distance a cluster's kernel is as high across an edge as before it: a dark background
// around a bright object keeps its stick high on the object's dark details, and a cluster
// located between two same-coloured regions reaches both, so one label covers pieces far
// apart. The geodesic distance is the shortest path over the fitted pixels' 4-neighbour
// grid from the location cell, a step costing its length in normalised coordinates plus
// β (EdgeCost) times the colour difference it crosses beyond edgeThreshold. Within a
// region it is about the Euclidean distance; across an edge it jumps.
//
// A cell's distance is the least over its pixels, so a cell that touches the region of
// x̂_c counts as in it. The location x̂_c is a cell; the kernel has no gradient in it, so
// geoRefine searches the cells that hold most of the cluster for the one that maximises
// J_c (locations.go), the bound's share of the stick c — keeping the current cell unless
// another raises it.

// edgeThreshold is the colour difference, in the features' unit (ColourUnit ΔE), that
// a step crosses without cost: the texture and noise between neighbouring fitted pixels
// of one region (the features are smoothed but 4 pixels apart at the default stride),
// which summed over a long path would otherwise make a region's far side "far".
const edgeThreshold = 1.0

// geoCandidates is the number of cells, those holding most of a cluster's
// responsibilities, that the location search tries besides the current one.
const geoCandidates = 4

// geodesic holds the step costs and every cluster's distances and kernel.
type geodesic struct {
	right, down []float64 // cost of the step to the right and down neighbour (N each)
	loc         []int     // location cell of every cluster
	dist        []float64 // GH·GW×C cell distances from each cluster's location
	kern        []float64 // GH·GW×C kernel values (1 − d)·exp(−dist²/ψ²), floored
	// Scratch of one Dijkstra run.
	pix  []float64
	heap distHeap
}

// newGeodesic prepares the step costs of m's pixels with colour-step cost beta.
func newGeodesic(m *kpyp, beta float64) *geodesic {
	p := m.p
	cells := m.GH * m.GW
	g := &geodesic{
		right: make([]float64, p.N), down: make([]float64, p.N),
		loc:  make([]int, m.C),
		dist: make([]float64, cells*m.C), kern: make([]float64, cells*m.C),
		pix: make([]float64, p.N),
	}
	D := p.D
	step := func(a, b int) float64 {
		var s float64
		for i := 0; i < 3; i++ { // the colour, not the texture columns
			e := p.Y[a*D+i] - p.Y[b*D+i]
			s += e * e
		}
		return beta * max(math.Sqrt(s)-edgeThreshold, 0)
	}
	for y := 0; y < p.H; y++ {
		for x := 0; x < p.W; x++ {
			n := y*p.W + x
			g.right[n], g.down[n] = math.Inf(1), math.Inf(1)
			if x+1 < p.W {
				g.right[n] = 1/float64(p.W) + step(n, n+1)
			}
			if y+1 < p.H {
				g.down[n] = 1/float64(p.H) + step(n, n+p.W)
			}
		}
	}
	return g
}

// cellDistances writes the geodesic distance of every cell from cell src into
// out[cell·stride].
func (m *kpyp) cellDistances(src int, out []float64, stride int) {
	g, p := m.geo, m.p
	for i := range g.pix {
		g.pix[i] = math.Inf(1)
	}
	g.heap = g.heap[:0]
	si, sj := src/m.GW, src%m.GW
	for y := si * m.cell; y < min((si+1)*m.cell, p.H); y++ {
		for x := sj * m.cell; x < min((sj+1)*m.cell, p.W); x++ {
			g.pix[y*p.W+x] = 0
			g.heap.push(distItem{y*p.W + x, 0})
		}
	}
	for len(g.heap) > 0 {
		it := g.heap.pop()
		if it.d > g.pix[it.n] {
			continue // a stale entry: n was reached by a shorter path since
		}
		n, x := it.n, it.n%p.W
		relax := func(o int, w float64) {
			if d := it.d + w; d < g.pix[o] {
				g.pix[o] = d
				g.heap.push(distItem{o, d})
			}
		}
		if x+1 < p.W {
			relax(n+1, g.right[n])
		}
		if x > 0 {
			relax(n-1, g.right[n-1])
		}
		if n+p.W < p.N {
			relax(n+p.W, g.down[n])
		}
		if n >= p.W {
			relax(n-p.W, g.down[n-p.W])
		}
	}
	for cell := 0; cell < m.GH*m.GW; cell++ {
		out[cell*stride] = math.Inf(1)
	}
	for n, d := range g.pix {
		cell := m.cellOf(n)
		out[cell*stride] = min(out[cell*stride], d)
	}
}

// geoKernel is the floored kernel of distance d at width psi.
func (m *kpyp) geoKernel(d, psi float64) float64 {
	return max((1-m.disc)*math.Exp(-d*d/(psi*psi)), kernelFloor)
}

// geoColumn sets cluster c's distances and kernel from its location cell.
func (m *kpyp) geoColumn(c int) {
	C := m.C
	m.cellDistances(m.geo.loc[c], m.geo.dist[c:], C)
	m.geoKernelColumn(c)
}

// geoKernelColumn sets cluster c's kernel from its distances and width.
func (m *kpyp) geoKernelColumn(c int) {
	C := m.C
	for cell := 0; cell < m.GH*m.GW; cell++ {
		m.geo.kern[cell*C+c] = m.geoKernel(m.geo.dist[cell*C+c], m.width[c])
	}
}

// geoTables sets every cluster's distances and kernel.
func (m *kpyp) geoTables() {
	for c := 0; c < m.C; c++ {
		m.geoColumn(c)
	}
}

// geoPlace puts every cluster's location at the cell holding most of its pixels under
// the hard labels (or, for a cluster with none, at the cell of (locY, locX)).
func (m *kpyp) geoPlace() {
	C, W := m.C, m.p.W
	count := make([]float64, m.GH*m.GW*C)
	for n, l := range m.labels {
		count[m.cellOf(n)*C+int(l)]++
	}
	for c := 0; c < C; c++ {
		i := min(int(m.locY[c]*float64(m.p.H))/m.cell, m.GH-1)
		j := min(int(m.locX[c]*float64(W))/m.cell, m.GW-1)
		m.geo.loc[c] = i*m.GW + j
		var best float64
		for cell := 0; cell < m.GH*m.GW; cell++ {
			if v := count[cell*C+c]; v > best {
				best, m.geo.loc[c] = v, cell
			}
		}
	}
}

// geoRefine moves every stick's location to the best, by J_c, of its current cell and
// the geoCandidates cells holding most of its responsibilities, then, with learnWidth,
// maximises J_c over ln ψ_c by L-BFGS at the distances of that location. Neither step
// lowers J_c, so neither lowers the bound.
func (m *kpyp) geoRefine() {
	counts := m.cellCounts()
	_, elog := m.alphaMoments()
	alphaMean, alphaBar := m.eta1/m.eta2, math.Exp(elog)
	C, cells := m.C, m.GH*m.GW
	dist := make([]float64, cells)
	for c := 0; c < C-1; c++ {
		for cell := 0; cell < cells; cell++ {
			dist[cell] = m.geo.dist[cell*C+c]
		}
		best := m.geoObjective(c, dist, m.width[c], counts, alphaMean, alphaBar, nil)
		cur := m.geo.loc[c]
		moved := false
		for _, cand := range topCells(counts, c, C, cells, geoCandidates) {
			if cand == cur {
				continue
			}
			m.cellDistances(cand, dist, 1)
			if j := m.geoObjective(c, dist, m.width[c], counts, alphaMean, alphaBar, nil); j > best {
				best, m.geo.loc[c], moved = j, cand, true
			}
		}
		if moved {
			m.cellDistances(m.geo.loc[c], m.geo.dist[c:], C)
		}
		if m.learnWidth {
			m.geoWidth(c, counts, alphaMean, alphaBar)
		}
		m.geoKernelColumn(c)
	}
	m.u0 = math.Inf(1) // the stick normalisers' tangent sums are stale: recompute them
}

// geoWidth maximises J_c over ln ψ_c at cluster c's distances.
func (m *kpyp) geoWidth(c int, counts []float64, alphaMean, alphaBar float64) {
	C, cells := m.C, m.GH*m.GW
	dist := make([]float64, cells)
	for cell := range dist {
		dist[cell] = m.geo.dist[cell*C+c]
	}
	g := make([]float64, 1)
	f := func(v []float64) float64 {
		return -m.geoObjective(c, dist, math.Exp(v[0]), counts, alphaMean, alphaBar, nil)
	}
	grad := func(out, v []float64) {
		m.geoObjective(c, dist, math.Exp(v[0]), counts, alphaMean, alphaBar, g)
		out[0] = -g[0]
	}
	x0 := []float64{math.Log(m.width[c])}
	before := f(x0)
	x, fx := minimize(f, grad, x0, refineIterations)
	if fx < before && !math.IsNaN(fx) {
		m.width[c] = math.Exp(x[0])
	}
}

// geoObjective is J_c for stick c at cell distances dist and width psi; with grad
// (length 1) it also returns ∂J_c/∂ln ψ.
func (m *kpyp) geoObjective(c int, dist []float64, psi float64, counts []float64, alphaMean, alphaBar float64, grad []float64) float64 {
	C := m.C
	inv := 1 / (psi * psi)
	var j, gp float64
	for cell, d := range dist {
		krbf := math.Exp(-d * d * inv)
		k := (1 - m.disc) * krbf
		floored := k < kernelFloor
		if floored {
			k = kernelFloor
		}
		cnt := counts[cell*C : (cell+1)*C]
		var t float64
		for _, v := range cnt[c+1:] {
			t += v
		}
		j += stickTerm(k, cnt[c], t, c+1, alphaMean, alphaBar)
		if grad != nil && !floored {
			gp += stickSlope(k, cnt[c], t, c+1, alphaMean, alphaBar) * (1 - m.disc) * krbf * 2 * d * d * inv
		}
	}
	if grad != nil {
		grad[0] = gp
	}
	return j
}

// topCells returns the n cells with the largest counts of cluster c (fewer if fewer hold
// any), largest first, the lower cell first among equal counts.
func topCells(counts []float64, c, C, cells, n int) []int {
	var out []int
	for i := 0; i < cells; i++ {
		if counts[i*C+c] > 0 {
			out = append(out, i)
		}
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(counts[b*C+c], counts[a*C+c]) })
	return out[:min(n, len(out))]
}

// distItem is a pixel and its tentative distance.
type distItem struct {
	n int
	d float64
}

// distHeap is a binary min-heap of distItems by distance, typed so that Dijkstra's
// pushes do not box every item as container/heap's would.
type distHeap []distItem

func (h *distHeap) push(it distItem) {
	*h = append(*h, it)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].d <= s[i].d {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *distHeap) pop() distItem {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l, r, small := 2*i+1, 2*i+2, i
		if l < len(s) && s[l].d < s[small].d {
			small = l
		}
		if r < len(s) && s[r].d < s[small].d {
			small = r
		}
		if small == i {
			break
		}
		s[i], s[small] = s[small], s[i]
		i = small
	}
	*h = s
	return top
}
