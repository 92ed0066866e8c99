package segment

import (
	"context"
	"math"
	"slices"
)

// Merge moves. Mean-field updates with C clusters from a K-means start stop in local
// optima where one region is held by several clusters of the same colour: every
// location's sticks are informed only by its own pixels, so whichever cluster holds a
// cell keeps it. A merge move (Ueda et al. 2000; Hughes & Sudderth 2013) joins two such
// clusters, runs one full iteration from there and keeps the result only if the
// variational bound rose, so the bound still never decreases.

// mergeMaxDist is the largest squared Mahalanobis distance between two clusters' means,
// under their average covariance, for them to be tried as a merge: only a speed-up,
// since the bound decides.
const mergeMaxDist = 25.0

// mergeMaxTrials caps the merges tried per round: each costs a pass over the image.
var mergeMaxTrials = 20

// snapshot is a copy of everything a rejected merge must restore.
type snapshot struct {
	R                        []float64
	labels                   []int32
	tot                      []float64
	clusters                 []nwCluster
	locY, locX, width        []float64
	eta1, eta2, u0, sumP, sA float64
}

func (m *kpyp) save(s *snapshot) {
	s.R = append(s.R[:0], m.R...)
	s.labels = append(s.labels[:0], m.labels...)
	s.tot = append(s.tot[:0], m.tot...)
	if s.clusters == nil {
		s.clusters = make([]nwCluster, m.C)
		for c := range s.clusters {
			s.clusters[c] = *newNWCluster(m.D)
		}
	}
	for c, q := range m.clusters {
		q.copyTo(&s.clusters[c])
	}
	s.locY = append(s.locY[:0], m.locY...)
	s.locX = append(s.locX[:0], m.locX...)
	s.width = append(s.width[:0], m.width...)
	s.eta1, s.eta2, s.u0, s.sumP, s.sA = m.eta1, m.eta2, m.u0, m.sumP, m.sumA
}

func (m *kpyp) restore(s *snapshot) {
	copy(m.R, s.R)
	copy(m.labels, s.labels)
	copy(m.tot, s.tot)
	for c := range m.clusters {
		s.clusters[c].copyTo(m.clusters[c])
	}
	m.packClusters()
	copy(m.locY, s.locY)
	copy(m.locX, s.locX)
	copy(m.width, s.width)
	m.kernelTables()
	m.eta1, m.eta2, m.u0, m.sumP, m.sumA = s.eta1, s.eta2, s.u0, s.sumP, s.sA
}

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

// mergeRound tries the merge candidates in order, at most min(budget, mergeMaxTrials)
// of them, each against the current bound; record is called with the bound of every
// accepted merge. A cluster changed by an accepted merge is not tried again in the same
// round. It returns how many merges were accepted and tried.
func (m *kpyp) mergeRound(ctx context.Context, budget int, bound float64, record func(float64)) (accepted, tried int, err error) {
	var snap snapshot
	touched := make([]bool, m.C)
	for _, pr := range m.mergeCandidates() {
		if tried >= min(budget, mergeMaxTrials) {
			break
		}
		if touched[pr.a] || touched[pr.b] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return accepted, tried, err
		}
		m.save(&snap)
		m.merge(pr.a, pr.b)
		b, err := m.iterate(false)
		tried++
		if err != nil || !(b > bound) {
			m.restore(&snap)
			continue
		}
		accepted++
		bound = b
		touched[pr.a], touched[pr.b] = true, true
		record(b)
	}
	return accepted, tried, nil
}

// merge moves cluster b's responsibilities and statistics into cluster a and puts x̂_a
// at the responsibility-weighted centre of the pixels of both.
func (m *kpyp) merge(a, b int) {
	C, D, W := m.C, m.D, m.p.W
	var sy, sx, s float64
	for n := 0; n < m.p.N; n++ {
		r := m.R[n*C+a] + m.R[n*C+b]
		m.R[n*C+a], m.R[n*C+b] = r, 0
		if m.labels[n] == int32(b) {
			m.labels[n] = int32(a)
		}
		sy += r * float64(n/W) / float64(m.p.H)
		sx += r * float64(n%W) / float64(W)
		s += r
	}
	if s > 0 {
		m.locY[a], m.locX[a] = sy/s, sx/s
		m.kernelTables()
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
	// The tangent sums depend on the kernel just moved: recompute them in the next pass.
	m.u0 = math.Inf(1)
}
