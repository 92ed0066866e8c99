package segment

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"featurelab/algorithms/cluster"
)

// locationWeight scales the standardised pixel coordinates against the colour (and
// texture) features, in units of ColourUnit, in K-means and DP-means: 0.35 lets colour
// dominate while still preferring spatially compact segments. (At 0.5 a background that spans the
// picture is as far from itself across the image as from another colour, and DP-means
// splits it in two.)
const locationWeight = 0.35

// initLocationWeight is the weight of the locations in the K-means that starts the
// KPYP: larger, so its C clusters are compact patches (like superpixels) that the
// kernel prior and the merge moves can join, rather than colour classes scattered over
// the image.
const initLocationWeight = 2.0

// clusterFeatures returns the N×(D+2) matrix of the features followed by the
// standardised, weighted locations (row/H, col/W) that K-means and DP-means cluster.
func clusterFeatures(p *pixels, locationWeight float64) ([]float64, int) {
	d := p.D + 2
	f := make([]float64, p.N*d)
	for n := 0; n < p.N; n++ {
		copy(f[n*d:], p.Y[n*p.D:(n+1)*p.D])
		f[n*d+p.D] = float64(n/p.W) / float64(p.H)
		f[n*d+p.D+1] = float64(n%p.W) / float64(p.W)
	}
	loc := make([]float64, 2*p.N)
	for n := 0; n < p.N; n++ {
		loc[2*n], loc[2*n+1] = f[n*d+p.D], f[n*d+p.D+1]
	}
	standardise(loc, p.N, 2)
	for n := 0; n < p.N; n++ {
		f[n*d+p.D] = locationWeight * loc[2*n]
		f[n*d+p.D+1] = locationWeight * loc[2*n+1]
	}
	return f, d
}

// kmeansLabels clusters the rows of x into k clusters (at most n) with cluster's K-means
// kernel: k-means++ seeding from seed, then at most maxIter assignment steps of Lloyd's
// algorithm on workers goroutines (the result does not depend on their number). It
// returns the labels and the objective Σ‖x_n − centre‖² after every assignment step,
// which progress, when not nil, also receives; report, when not nil, is told how far the
// seeding and each assignment step have come (cluster.Lloyd.Report).
func kmeansLabels(ctx context.Context, x []float64, n, d, k int, seed uint64, maxIter, workers int,
	progress func(int, float64), report func(stage string, done, total int)) ([]int32, []float64, error) {
	k = min(k, n)
	rng := rand.New(rand.NewPCG(seed, 0x6b6d65616e73)) // "kmeans"
	km := cluster.NewLloyd(x, n, d, k, workers)
	centres, assign := make([]float64, k*d), make([]int, n)
	km.Report = report
	if err := km.Seed(ctx, rng, centres, assign); err != nil {
		return nil, nil, err
	}
	var trace []float64
	_, err := km.Run(ctx, centres, assign, maxIter, func(it int, obj float64) {
		trace = append(trace, obj)
		if progress != nil {
			progress(it, obj)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return labels32(assign), trace, nil
}

// dpMeans runs DP-means (Kulis & Jordan 2012, Alg. 1) on the rows of x with penalty
// lambda2 through cluster.DPMeansRows: rows visited in raster order from one cluster at
// the mean, a row farther than λ² from every centre opening a cluster at itself, empty
// clusters dropped. It returns the labels and the objective Σ‖x_n − centre‖² + λ²K after
// every pass that moved rows, which progress, when not nil, also receives.
//
// It opens at most maxK clusters (maxLabels in Segment) and fails, saying so, when λ²
// asks for more.
func dpMeans(ctx context.Context, x []float64, n, d int, lambda2 float64, maxIter, maxK int,
	progress func(int, float64)) ([]int32, []float64, error) {
	var trace []float64
	assign, err := cluster.DPMeansRows(ctx, x, n, d, lambda2, maxIter, maxK, func(pass int, obj float64) {
		trace = append(trace, obj)
		if progress != nil {
			progress(pass, obj)
		}
	})
	if errors.Is(err, cluster.ErrTooManyClusters) {
		// Labels are 16-bit; stopping quietly at the cap would leave the rest of the
		// image in whichever cluster happened to be nearest.
		return nil, nil, fmt.Errorf("segment: DP-means would open more than %d segments: λ² = %.3g is too small for this image", maxK, lambda2)
	}
	if err != nil {
		return nil, nil, err
	}
	return labels32(assign), trace, nil
}

// labels32 is a clustering's assignment as the segmenter's labels.
func labels32(assign []int) []int32 {
	labels := make([]int32, len(assign))
	for i, c := range assign {
		labels[i] = int32(c)
	}
	return labels
}
