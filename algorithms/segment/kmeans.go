package segment

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"featurelab/algorithms/learn"
	"featurelab/internal/parallel"
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

// sqDist is ‖a − b‖² over the first len(a) entries.
func sqDist(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		e := v - b[i]
		s += e * e
	}
	return s
}

// kmeansPlusPlus picks k centres from the n×d rows of x by D² sampling (Arthur &
// Vassilvitskii): the first uniformly, each next one with probability proportional to
// its squared distance to the nearest centre so far.
func kmeansPlusPlus(x []float64, n, d, k int, rng *rand.Rand) []float64 {
	centres := make([]float64, 0, k*d)
	first := rng.IntN(n)
	centres = append(centres, x[first*d:(first+1)*d]...)
	dist := make([]float64, n)
	var total float64
	for i := 0; i < n; i++ {
		dist[i] = sqDist(x[i*d:(i+1)*d], centres[:d])
		total += dist[i]
	}
	for len(centres) < k*d {
		pick := n - 1
		if total > 0 {
			u := rng.Float64() * total
			for i, v := range dist {
				u -= v
				if u < 0 {
					pick = i
					break
				}
			}
		} else {
			pick = rng.IntN(n) // every row is already a centre
		}
		c := len(centres)
		centres = append(centres, x[pick*d:(pick+1)*d]...)
		total = 0
		for i := 0; i < n; i++ {
			if v := sqDist(x[i*d:(i+1)*d], centres[c:c+d]); v < dist[i] {
				dist[i] = v
			}
			total += dist[i]
		}
	}
	return centres
}

// lloyd runs Lloyd's iterations from the given centres until no label changes or maxIter
// iterations, on workers goroutines. It returns the labels, the final centres and the
// objective Σ‖x_n − centre‖² after every iteration. An empty cluster keeps its centre.
func lloyd(ctx context.Context, x []float64, n, d int, centres []float64, maxIter, workers int,
	progress func(int, float64)) ([]int32, []float64, []float64, error) {
	k := len(centres) / d
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = -1
	}
	nc := parallel.NumChunks(n)
	m := 2 + k + k*d // objective, changed, counts, sums
	parts := parallel.NewParts(nc, m)
	tot := make([]float64, m)
	var trace []float64
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		parallel.ForChunks(n, workers, func(_, ch, lo, hi int) {
			acc := parts[ch]
			clear(acc)
			for i := lo; i < hi; i++ {
				xi := x[i*d : (i+1)*d]
				best, bd := 0, math.Inf(1)
				for c := 0; c < k; c++ {
					if v := sqDist(xi, centres[c*d:(c+1)*d]); v < bd {
						best, bd = c, v
					}
				}
				acc[0] += bd
				if labels[i] != int32(best) {
					acc[1]++
					labels[i] = int32(best)
				}
				acc[2+best]++
				s := acc[2+k+best*d:]
				for j, v := range xi {
					s[j] += v
				}
			}
		})
		parallel.SumChunks(tot, parts)
		trace = append(trace, tot[0])
		if progress != nil {
			progress(it, tot[0])
		}
		if tot[1] == 0 {
			break
		}
		for c := 0; c < k; c++ {
			if cnt := tot[2+c]; cnt > 0 {
				for j := 0; j < d; j++ {
					centres[c*d+j] = tot[2+k+c*d+j] / cnt
				}
			}
		}
	}
	return labels, centres, trace, nil
}

// kmeansLabels clusters the rows of x into k clusters: k-means++ seeding from seed, then
// Lloyd's iterations.
func kmeansLabels(ctx context.Context, x []float64, n, d, k int, seed uint64, maxIter, workers int,
	progress func(int, float64)) ([]int32, []float64, error) {
	k = min(k, n)
	rng := rand.New(rand.NewPCG(seed, 0x6b6d65616e73)) // "kmeans"
	centres := kmeansPlusPlus(x, n, d, k, rng)
	labels, _, trace, err := lloyd(ctx, x, n, d, centres, maxIter, workers, progress)
	return labels, trace, err
}

// farthestFirstLambda2 proposes DP-means' λ² for about k clusters of the rows of x by
// learn.FarthestFirst, the traversal the clustering learners use, with this package's
// squared distance (summed in coordinate order, as every distance of the segmenter is).
func farthestFirstLambda2(x []float64, n, d, k int) float64 {
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			mean[j] += x[i*d+j]
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	return learn.FarthestFirst(n, k,
		func(i int) float64 { return sqDist(x[i*d:(i+1)*d], mean) },
		func(i, c int, _ float64) float64 { return sqDist(x[i*d:(i+1)*d], x[c*d:(c+1)*d]) })
}

// dpMeans runs DP-means (Kulis & Jordan 2012, Alg. 1; their Alg. 2 is the hard HDP) on
// the rows of x with penalty lambda2: rows are visited in raster order, a row farther than λ² (squared) from
// every centre opens a new cluster at itself, then centres move to their means; repeat
// until no label changes. Empty clusters are dropped. It returns the labels and the
// objective Σ‖x_n − centre‖² + λ²K after every iteration.
//
// It opens at most maxK clusters (maxLabels in Segment) and fails, saying so, when λ²
// asks for more.
func dpMeans(ctx context.Context, x []float64, n, d int, lambda2 float64, maxIter, maxK int,
	progress func(int, float64)) ([]int32, []float64, error) {
	// One cluster at the global mean to start with.
	centres := make([]float64, d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			centres[j] += x[i*d+j]
		}
	}
	for j := range centres {
		centres[j] /= float64(n)
	}
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = -1
	}
	var trace []float64
	var sums, counts []float64
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		changed := 0
		for i := 0; i < n; i++ {
			xi := x[i*d : (i+1)*d]
			k := len(centres) / d
			best, bd := 0, math.Inf(1)
			for c := 0; c < k; c++ {
				if v := sqDist(xi, centres[c*d:(c+1)*d]); v < bd {
					best, bd = c, v
				}
			}
			if bd > lambda2 {
				if k >= maxK {
					// Labels are 16-bit; stopping quietly at the cap would leave the rest
					// of the image in whichever cluster happened to be nearest.
					return nil, nil, fmt.Errorf("segment: DP-means would open more than %d segments: λ² = %.3g is too small for this image", maxK, lambda2)
				}
				centres = append(centres, xi...)
				best = k
			}
			if labels[i] != int32(best) {
				changed++
				labels[i] = int32(best)
			}
		}
		// Move the centres to their means, dropping empty clusters and renumbering.
		k := len(centres) / d
		sums = append(sums[:0], make([]float64, k*d)...)
		counts = append(counts[:0], make([]float64, k)...)
		for i := 0; i < n; i++ {
			c := int(labels[i])
			counts[c]++
			for j := 0; j < d; j++ {
				sums[c*d+j] += x[i*d+j]
			}
		}
		remap := make([]int32, k)
		centres = centres[:0]
		kept := 0
		for c := 0; c < k; c++ {
			if counts[c] == 0 {
				remap[c] = -1
				continue
			}
			remap[c] = int32(kept)
			kept++
			for j := 0; j < d; j++ {
				centres = append(centres, sums[c*d+j]/counts[c])
			}
		}
		var obj float64
		for i := 0; i < n; i++ {
			labels[i] = remap[labels[i]]
			obj += sqDist(x[i*d:(i+1)*d], centres[int(labels[i])*d:])
		}
		obj += lambda2 * float64(kept)
		trace = append(trace, obj)
		if progress != nil {
			progress(it, obj)
		}
		if changed == 0 {
			break
		}
	}
	return labels, trace, nil
}
