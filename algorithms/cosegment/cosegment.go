package cosegment

import (
	"context"
	"errors"
	"fmt"
	"image"
	"time"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/cluster"
	"featurelab/algorithms/learn"
	"featurelab/algorithms/segment"
	"featurelab/imgproc"
)

// Defaults of Options.
const (
	DefaultCell     = 8 // pixels on a cell's side
	DefaultTargetK  = 8 // global clusters the penalties are proposed for
	DefaultRestarts = 3 // restarts of the hard HDP
)

// Options are a co-segmentation's settings.
type Options struct {
	// LambdaLocal and LambdaGlobal are the hard HDP's λ_bottom (a segment in an image)
	// and λ_top (a global cluster); 0 proposes them from the cells of all images for a
	// target of K global clusters: λ_bottom as DP-means' farthest-first λ, λ_top as that
	// λ times the cells of a typical segment (an image's cells over K).
	LambdaLocal, LambdaGlobal float64
	K                         int    // target global clusters for the proposal (0: DefaultTargetK)
	Divergence                string // euclidean (default) on CIE L*a*b*; kl or idiv on sRGB
	Cell                      int    // side of a cell in pixels (0: DefaultCell)
	Restarts, MaxIter         int
	Seed                      uint64
	Workers                   int
}

// Images are the images to co-segment, read one at a time when asked for, so that a
// folder's pictures need not all be decoded at once.
type Images interface {
	Len() int
	Image(i int) image.Image
}

// Slice is Images held as decoded images.
type Slice []image.Image

// Len is the number of images.
func (s Slice) Len() int { return len(s) }

// Image is image i.
func (s Slice) Image(i int) image.Image { return s[i] }

// Result is a co-segmentation: per image, a global cluster per cell of Cell × Cell
// pixels (Labels gives it per pixel).
type Result struct {
	Sizes []image.Point // per image, its size
	Cell  int           // pixels on a cell's side
	// CellLabels is, per image, row-major over its cells ((W+Cell−1)/Cell per row), the
	// global cluster of each: 4 bytes per cell, where a label per pixel took 4·Cell².
	CellLabels [][]int32
	K          int          // global clusters
	Local      []int        // per image, its segments: the global clusters it uses
	Means      [][3]float64 // per global cluster, the mean sRGB colour of its pixels in [0, 1]
	Images     []int        // per global cluster, how many images use it
	Pixels     []int        // per global cluster, how many pixels of all images it holds
	// Objective is the divergence of the cells from their global means; Penalised adds
	// the penalties (eq. 4).
	Objective, Penalised      float64
	LambdaLocal, LambdaGlobal float64
	Iterations                int
	Seconds                   float64
}

// Labels is image i's global cluster per pixel, row-major.
func (r *Result) Labels(i int) []int32 {
	size, cell := r.Sizes[i], r.Cell
	cw := (size.X + cell - 1) / cell
	out := make([]int32, size.X*size.Y)
	for y := 0; y < size.Y; y++ {
		row := r.CellLabels[i][(y/cell)*cw:]
		for x := 0; x < size.X; x++ {
			out[y*size.X+x] = row[x/cell]
		}
	}
	return out
}

// Memory is an upper bound on what Cosegment allocates with opt for n images of w × h
// pixels: per cell its point, its colour sums and count, its label and group, the hard
// HDP's copy of the point, assignments and scratch (the latter per worker), with the
// slack of growing them; and one image's colours (3 float64 a pixel) while it is read.
func Memory(n, w, h int, opt Options) int64 {
	cell := opt.Cell
	if cell <= 0 {
		cell = DefaultCell
	}
	restarts := opt.Restarts
	if restarts <= 0 {
		restarts = DefaultRestarts
	}
	workers := learn.WorkerCount(opt.Workers, restarts)
	cells := int64(n) * int64((w+cell-1)/cell) * int64((h+cell-1)/cell)
	return cells*(bytesPerCell+bytesPerCellWorker*int64(workers)) + 24*int64(w)*int64(h)
}

// The bytes per cell of Memory, measured with the runtime's allocation counter on 20
// photos of 320×240 (TestMemory): 487 allocated per cell on 1 worker, 531 on 2, 539 on 4.
const (
	bytesPerCell       = 512
	bytesPerCellWorker = 32
)

// Cosegment segments imgs together. Each image is cut into cells of opt.Cell pixels on a
// side (the last row and column of cells may be smaller); a cell's point is its mean
// colour — CIE L*a*b* for the squared Euclidean distance, where distances follow what the
// eye sees, sRGB for KL and the I-divergence, which need non-negative values — and every
// pixel of a cell gets the cell's global cluster. Transparent pixels are composited on
// white, as the loader does. Each image is read once and only its cells are kept (their
// points, colour sums and sizes): memory is linear in the cells, bounded by Memory.
func Cosegment(ctx context.Context, imgs Images, opt Options) (*Result, error) {
	start := time.Now()
	if imgs == nil || imgs.Len() == 0 {
		return nil, errors.New("cosegment: no images")
	}
	cell := opt.Cell
	switch {
	case cell == 0:
		cell = DefaultCell
	case cell < 1:
		return nil, fmt.Errorf("cell must be ≥ 1 pixel, got %d", cell)
	}
	lab := opt.Divergence == "" || opt.Divergence == "euclidean"
	n := imgs.Len()
	var points, rgbSums, counts []float64 // per cell: its point, its sRGB sum, its pixels
	var pix []float64                     // one image's sRGB, reused from image to image
	var group []int
	first := make([]int, n+1) // image i's cells are first[i]…first[i+1]−1
	res := &Result{Sizes: make([]image.Point, n), Cell: cell, CellLabels: make([][]int32, n)}
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		img := imgs.Image(i)
		if img == nil || img.Bounds().Empty() {
			return nil, fmt.Errorf("cosegment: image %d is empty", i)
		}
		b := img.Bounds()
		w, h := b.Dx(), b.Dy()
		res.Sizes[i] = image.Pt(w, h)
		cw, ch := (w+cell-1)/cell, (h+cell-1)/cell
		first[i+1] = first[i] + cw*ch
		sums := make([]float64, 3*cw*ch)
		rgbSums = append(rgbSums, make([]float64, 3*cw*ch)...)
		counts = append(counts, make([]float64, cw*ch)...)
		rgb, cnt := rgbSums[3*first[i]:], counts[first[i]:]
		pix = imgproc.ImageToVectorInto(pix, img, false) // sRGB in [0, 1], on white
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := [3]float64(pix[3*(y*w+x) : 3*(y*w+x)+3])
				ci := (y/cell)*cw + x/cell
				for k := range v {
					rgb[3*ci+k] += v[k]
				}
				if lab {
					v[0], v[1], v[2] = segment.SRGBToLab(v[0], v[1], v[2])
				}
				for k := range v {
					sums[3*ci+k] += v[k]
				}
				cnt[ci]++
			}
		}
		for ci, m := range cnt[:cw*ch] {
			for k := 0; k < 3; k++ {
				points = append(points, sums[3*ci+k]/m)
			}
			group = append(group, i)
		}
	}
	X := mat.NewDense(len(group), 3, points)
	restarts := opt.Restarts
	if restarts == 0 {
		restarts = DefaultRestarts
	}
	k := opt.K
	if k == 0 {
		k = DefaultTargetK
	}
	// The penalties, when not given, are the hard HDP's proposal
	// (cluster.ProposeHDPLambdas): λ_bottom the farthest-first λ for the target, the
	// divergence at which a lone cell opens a segment, and λ_top that λ times an image's
	// cells over the target, the cells of a typical segment.
	hdp, err := cluster.HardHDP(ctx, X, group, cluster.HDPOptions{
		Options:     learn.Options{K: k, Restarts: restarts, MaxIter: opt.MaxIter, Seed: opt.Seed, Workers: opt.Workers, Divergence: opt.Divergence},
		LambdaLocal: opt.LambdaLocal, LambdaGlobal: opt.LambdaGlobal,
	})
	if err != nil {
		return nil, err
	}
	res.K, res.Local = hdp.K, hdp.Local
	res.Objective, res.Penalised = hdp.Objective, hdp.Penalised
	res.LambdaLocal, res.LambdaGlobal = hdp.LambdaLocal, hdp.LambdaGlobal
	res.Iterations = hdp.Iterations
	res.Means = make([][3]float64, hdp.K)
	res.Images = make([]int, hdp.K)
	pixels := make([]float64, hdp.K)
	for i := 0; i < n; i++ {
		labels := make([]int32, first[i+1]-first[i])
		used := make([]bool, hdp.K)
		for ci := first[i]; ci < first[i+1]; ci++ {
			g := hdp.Assign[ci]
			labels[ci-first[i]] = int32(g)
			used[g] = true
			for k := 0; k < 3; k++ {
				res.Means[g][k] += rgbSums[3*ci+k]
			}
			pixels[g] += counts[ci]
		}
		res.CellLabels[i] = labels
		for g, u := range used {
			if u {
				res.Images[g]++
			}
		}
	}
	res.Pixels = make([]int, hdp.K)
	for g := range res.Means {
		for k := 0; k < 3; k++ {
			res.Means[g][k] /= pixels[g]
		}
		res.Pixels[g] = int(pixels[g])
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}
