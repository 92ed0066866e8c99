package segment

import (
	"math"

	"featurelab/internal/parallel"
)

// SLIC superpixels (Achanta, Shaji, Smith, Lucchi, Fua & Süsstrunk, "SLIC superpixels
// compared to state-of-the-art superpixel methods", IEEE TPAMI 34(11), 2012), the
// locations of the final labelling (labelAll, stride.go): compact patches of about a
// cell's size whose borders follow the colour edges of the photo, where the fit's
// square cells cut across them.

const (
	// slicIterations is the number of assign-and-update rounds; Achanta et al. find
	// 10 enough and most of the movement in the first few.
	slicIterations = 5
	// slicSpatial weighs the spatial distance against the colour distance: a pixel one
	// superpixel side from a seed is as far as one colour unit (ColourUnit ΔE)
	// times slicSpatial.
	slicSpatial = 0.5
)

// superpixels partitions the pixels of p into SLIC superpixels of about size×size
// pixels: seeds at the centres of a grid of size-pixel squares, then slicIterations
// rounds of assigning every pixel to the nearest of the seeds of its own square and
// the eight around it — by ‖colour − seed colour‖² + (slicSpatial/size)²‖position −
// seed position‖² over the first three features (L*, a*, b*) — and moving each seed to
// the mean of its pixels. It returns the label of every pixel, the number of seeds and
// their final places (row, column of seed l at 2l, 2l+1): each the mean position of
// its superpixel's pixels, since the last round ends with the update.
// A superpixel need not be connected, and one may be empty. The assignment runs on
// workers goroutines; each pixel's label depends only on the seeds, so the result does
// not depend on workers.
func superpixels(p *pixels, size, workers int) ([]int32, int, []float64) {
	size = max(size, 1)
	W, H, D := p.W, p.H, p.D
	gw, gh := (W+size-1)/size, (H+size-1)/size
	k := gw * gh
	// seed[s] = (y, x, L*, a*, b*)
	seed := make([]float64, 5*k)
	for gi := range gh {
		for gj := range gw {
			y := min(gi*size+size/2, H-1)
			x := min(gj*size+size/2, W-1)
			n := y*W + x
			s := seed[5*(gi*gw+gj):]
			s[0], s[1] = float64(y), float64(x)
			copy(s[2:5], p.Y[n*D:n*D+3])
		}
	}
	labels := make([]int32, p.N)
	sw := (slicSpatial / float64(size)) * (slicSpatial / float64(size))
	sums := make([]float64, 6*k)
	for range slicIterations {
		parallel.ForChunks(p.N, workers, func(_, _, lo, hi int) {
			for n := lo; n < hi; n++ {
				y, x := n/W, n%W
				gi, gj := y/size, x/size
				yn := p.Y[n*D : n*D+3]
				best, bd := int32(gi*gw+gj), math.Inf(1)
				for i := max(gi-1, 0); i <= min(gi+1, gh-1); i++ {
					for j := max(gj-1, 0); j <= min(gj+1, gw-1); j++ {
						s := seed[5*(i*gw+j) : 5*(i*gw+j)+5]
						dy, dx := float64(y)-s[0], float64(x)-s[1]
						d0, d1, d2 := yn[0]-s[2], yn[1]-s[3], yn[2]-s[4]
						if d := d0*d0 + d1*d1 + d2*d2 + sw*(dy*dy+dx*dx); d < bd {
							best, bd = int32(i*gw+j), d
						}
					}
				}
				labels[n] = best
			}
		})
		clear(sums)
		for n, l := range labels {
			s := sums[6*l : 6*l+6]
			yn := p.Y[n*D : n*D+3]
			s[0] += float64(n / W)
			s[1] += float64(n % W)
			s[2] += yn[0]
			s[3] += yn[1]
			s[4] += yn[2]
			s[5]++
		}
		for l := range k {
			if c := sums[6*l+5]; c > 0 {
				for i := range 5 {
					seed[5*l+i] = sums[6*l+i] / c
				}
			}
		}
	}
	centres := make([]float64, 2*k)
	for l := range k {
		centres[2*l], centres[2*l+1] = seed[5*l], seed[5*l+1]
	}
	return labels, k, centres
}
