package segment

import (
	"context"
	"math"
	"slices"

	"featurelab/internal/parallel"
)

// initLloydIterations caps the Lloyd iterations of the K-means that starts the KPYP:
// it only has to spread C compact clusters over the image.
const initLloydIterations = 10

// initialise places the clusters and sets the first responsibilities: seeded K-means
// (cluster.Lloyd: k-means++, then initLloydIterations Lloyd iterations) with C − 1
// clusters on the features of the "kmeans" method but with the locations weighted by
// initLocationWeight, so the clusters start as compact patches spread over the image;
// clusters numbered by decreasing size so the largest gets the first stick; x̂_c at the
// mean location of its pixels (the paper leaves the start of x̂_c open: "random
// selection"); and the statistics of q(θ_c) from its pixels. The first pass then
// computes the sticks from their prior and the responsibilities from the sticks and
// q(θ).
//
// C − 1, not C: the last component of the truncation has v_C ≡ 1, a stick that reaches
// every location. Seeded with a patch, it could hold same-coloured regions anywhere in
// the image; started empty, it only collects what the located sticks leave.
func (m *kpyp) initialise(ctx context.Context, opt Options) error {
	x, d := clusterFeatures(m.p, initLocationWeight)
	C, N, W, H := m.C, m.p.N, m.p.W, m.p.H
	labels, _, err := kmeansLabels(ctx, x, N, d, max(C-1, 1), opt.Seed, initLloydIterations, m.workers, nil, nil)
	if err != nil {
		return err
	}
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
			// An empty cluster — the last one (K-means re-seeds the clusters it
			// empties): spread on a grid.
			m.locY[r] = (float64(r/cols) + 0.5) / float64(cols)
			m.locX[r] = (float64(r%cols) + 0.5) / float64(cols)
		}
	}
	if m.geo != nil {
		m.geoPlace()
	}
	m.kernelTables()
	// θ statistics from the hard initial assignment, through the same chunked sums.
	parts := parallel.NewParts(parallel.NumChunks(N), len(m.tot))
	parallel.ForChunks(N, m.workers, func(_, ch, lo, hi int) {
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
	parallel.SumChunks(m.tot, parts)
	m.temperStats()
	m.stickFree = true
	return nil
}
