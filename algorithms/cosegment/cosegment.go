package cosegment

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
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
	// MaxCell is the largest cell: one cell then covers a 4096-pixel square, more than
	// the working size of any picture.
	MaxCell = 4096
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
	// Report, when set, is told how far the work has come (stage, done, total): the
	// cells read, λ proposed, seeding and restarts of the hard HDP. It may be called from
	// any goroutine, concurrently.
	Report func(stage string, done, total int)
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
// pixels, and per pixel (Labels).
type Result struct {
	Sizes []image.Point // per image, its size
	Cell  int           // pixels on a cell's side
	// CellLabels is, per image, row-major over its cells ((W+Cell−1)/Cell per row), the
	// global cluster of each (for L*a*b*, that of the cell's centre pixel): 4 bytes a
	// cell, where a label per pixel would take 4·Cell².
	CellLabels [][]int32
	// For the squared distance on L*a*b*, what Labels needs to label every pixel: the
	// images, the global means, per image the global clusters its cells use, and the
	// hard HDP's cluster of every cell (−1 − g for a cluster g that went).
	imgs    Images
	centres [][3]float64
	local   [][]int32
	cells   [][]int32
	K       int          // global clusters
	Local   []int        // per image, its segments: the global clusters it uses
	Means   [][3]float64 // per global cluster, the mean sRGB colour of its pixels in [0, 1]
	Images  []int        // per global cluster, how many images use it
	Pixels  []int        // per global cluster, how many pixels of all images it holds
	// Objective is the divergence of the cells from their global means; Penalised adds
	// the penalties (eq. 4).
	Objective, Penalised      float64
	LambdaLocal, LambdaGlobal float64
	Iterations                int
	Seconds                   float64
}

// Labels is image i's global cluster per pixel, row-major: its cell's. For the squared
// distance on L*a*b*, a pixel of a cell on an edge — one with a neighbouring cell in
// another cluster — gets instead the nearest global mean of those its image's cells use:
// the hard HDP's row move for a new row of the image, with no new cluster opened, so
// segments follow the edges within cells, while the pixels inside a region, whose
// single colours are noisy, keep their cell's cluster.
func (r *Result) Labels(i int) []int32 {
	if r.imgs != nil {
		labels, _ := r.pixelLabels(i, nil, nil)
		return labels
	}
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

// pixelLabels is Labels for L*a*b*, reading the image into pix and labelling into
// labels (each reused when large enough); it returns both.
func (r *Result) pixelLabels(i int, pix []float64, labels []int32) ([]int32, []float64) {
	pix = imgproc.ImageToVectorInto(pix, r.imgs.Image(i), false)
	size, cell, cells := r.Sizes[i], r.Cell, r.cells[i]
	cw, ch := (size.X+cell-1)/cell, (size.Y+cell-1)/cell
	n := size.X * size.Y
	if cap(labels) < n {
		labels = make([]int32, n)
	}
	labels = labels[:n]
	edge := func(cy, cx int) bool {
		g := cells[cy*cw+cx]
		return (cy > 0 && cells[(cy-1)*cw+cx] != g) || (cy+1 < ch && cells[(cy+1)*cw+cx] != g) ||
			(cx > 0 && cells[cy*cw+cx-1] != g) || (cx+1 < cw && cells[cy*cw+cx+1] != g)
	}
	for y := 0; y < size.Y; y++ {
		for x := 0; x < size.X; x++ {
			p := y*size.X + x
			cy, cx := y/cell, x/cell
			if g := cells[cy*cw+cx]; g >= 0 && !edge(cy, cx) {
				labels[p] = g
				continue
			}
			l, a, b := segment.SRGBToLab(pix[3*p], pix[3*p+1], pix[3*p+2])
			best, bestD := int32(0), math.Inf(1)
			for _, g := range r.local[i] {
				c := r.centres[g]
				if d := (l-c[0])*(l-c[0]) + (a-c[1])*(a-c[1]) + (b-c[2])*(b-c[2]); d < bestD {
					best, bestD = g, d
				}
			}
			labels[p] = best
		}
	}
	return labels, pix
}

// relabelPixels labels every pixel (Labels) from the hard HDP's global means (K×3, in
// L*a*b*) and the clusters each image's cells use, then takes the clusters' mean colours,
// images, pixels and each image's segments from the pixels' labels. A global cluster no
// pixel ends in — one made of cells that straddle an edge, whose pixels are each nearer
// a colour on either side — goes, and the rest are renumbered in order. pix is a buffer
// for one image's colours.
func (r *Result) relabelPixels(imgs Images, means *mat.Dense, pix []float64) {
	k := r.K
	r.imgs = imgs
	r.centres = make([][3]float64, k)
	for g := range r.centres {
		copy(r.centres[g][:], means.RawRowView(g))
	}
	r.local = make([][]int32, len(r.Sizes))
	r.cells = make([][]int32, len(r.Sizes))
	used := make([]bool, k)
	for i, cells := range r.CellLabels {
		r.cells[i] = slices.Clone(cells)
		clear(used)
		for _, g := range cells {
			if !used[g] {
				used[g] = true
				r.local[i] = append(r.local[i], g)
			}
		}
	}
	sums := make([][3]float64, k)
	pixels := make([]int, k)
	images := make([]int, k)
	var labels []int32
	for i := range r.Sizes {
		labels, pix = r.pixelLabels(i, pix, labels)
		// A cell's label becomes that of its centre pixel: its own cluster may go below.
		size, cell := r.Sizes[i], r.Cell
		cw := (size.X + cell - 1) / cell
		for ci := range r.CellLabels[i] {
			y := min((ci/cw)*cell+cell/2, size.Y-1)
			x := min((ci%cw)*cell+cell/2, size.X-1)
			r.CellLabels[i][ci] = labels[y*size.X+x]
		}
		clear(used)
		for n, g := range labels {
			used[g] = true
			pixels[g]++
			for c := 0; c < 3; c++ {
				sums[g][c] += pix[3*n+c]
			}
		}
		for g, u := range used {
			if u {
				images[g]++
			}
		}
	}
	remap := make([]int32, k)
	r.K = 0
	r.Means, r.Images, r.Pixels = nil, nil, nil
	var centres [][3]float64
	for g := range remap {
		remap[g] = -1
		if pixels[g] == 0 {
			continue
		}
		remap[g] = int32(r.K)
		r.K++
		centres = append(centres, r.centres[g])
		m := sums[g]
		for c := range m {
			m[c] /= float64(pixels[g])
		}
		r.Means = append(r.Means, m)
		r.Images = append(r.Images, images[g])
		r.Pixels = append(r.Pixels, pixels[g])
	}
	r.centres = centres
	for i, loc := range r.local {
		kept := loc[:0]
		for _, g := range loc {
			if remap[g] >= 0 {
				kept = append(kept, remap[g])
			}
		}
		r.local[i] = kept
		r.Local[i] = len(kept)
		for ci, g := range r.CellLabels[i] {
			r.CellLabels[i][ci] = remap[g]
		}
		for ci, g := range r.cells[i] {
			if r.cells[i][ci] = remap[g]; remap[g] < 0 {
				r.cells[i][ci] = -1 - g // still unlike its neighbours in other clusters
			}
		}
	}
}

// Memory is an upper bound on what Cosegment allocates with opt for n images of w × h
// pixels: per cell its point, its colour sums and count, its label and group, the hard
// HDP's copy of the point, assignments and scratch (the latter per worker), with the
// slack of growing them; and one image's colours and labels (3 float64 and an int32 a
// pixel) while it is read.
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
	return cells*(bytesPerCell+bytesPerCellWorker*int64(workers)) + 28*int64(w)*int64(h)
}

// The bytes per cell of Memory, measured with the runtime's allocation counter
// (TestMemory), besides the one image's buffers, and rounded up so that the race
// detector's extra stays within them (docs/DESIGN.md, "Measurements behind the code").
const (
	bytesPerCell       = 512
	bytesPerCellWorker = 64
)

// Cosegment segments imgs together. Each image is cut into cells of opt.Cell pixels on a
// side (the last row and column of cells may be smaller); a cell's point is its mean
// colour — CIE L*a*b* for the squared Euclidean distance, where distances follow what the
// eye sees, sRGB for KL and the I-divergence, which need non-negative values — and every
// pixel of a cell gets the cell's global cluster, or for L*a*b* the nearest of its
// image's clusters (Labels). Transparent pixels are composited on
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
	res := &Result{Sizes: make([]image.Point, n), Cell: cell}
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if opt.Report != nil {
			opt.Report("Reading the cells", i, n)
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
	var progress func(learn.Progress)
	if opt.Report != nil {
		progress = func(p learn.Progress) { opt.Report("Co-segmenting: restart", p.Done, p.Total) }
	}
	hdp, err := cluster.HardHDP(ctx, X, group, cluster.HDPOptions{
		Options: learn.Options{K: k, Restarts: restarts, MaxIter: opt.MaxIter, Seed: opt.Seed, Workers: opt.Workers,
			Divergence: opt.Divergence, Progress: progress},
		LambdaLocal: opt.LambdaLocal, LambdaGlobal: opt.LambdaGlobal, Report: opt.Report,
	})
	if err != nil {
		return nil, err
	}
	res.K, res.Local = hdp.K, hdp.Local
	res.Objective, res.Penalised = hdp.Objective, hdp.Penalised
	res.LambdaLocal, res.LambdaGlobal = hdp.LambdaLocal, hdp.LambdaGlobal
	res.Iterations = hdp.Iterations
	res.CellLabels = make([][]int32, n)
	for i := 0; i < n; i++ {
		labels := make([]int32, first[i+1]-first[i])
		for ci := range labels {
			labels[ci] = int32(hdp.Assign[first[i]+ci])
		}
		res.CellLabels[i] = labels
	}
	if lab {
		res.relabelPixels(imgs, hdp.Means, pix)
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	res.Means = make([][3]float64, hdp.K)
	res.Images = make([]int, hdp.K)
	res.Pixels = make([]int, hdp.K)
	for i := 0; i < n; i++ {
		used := make([]bool, hdp.K)
		for ci := first[i]; ci < first[i+1]; ci++ {
			g := hdp.Assign[ci]
			used[g] = true
			for k := 0; k < 3; k++ {
				res.Means[g][k] += rgbSums[3*ci+k]
			}
			res.Pixels[g] += int(counts[ci])
		}
		for g, u := range used {
			if u {
				res.Images[g]++
			}
		}
	}
	for g := range res.Means {
		for k := 0; k < 3; k++ {
			res.Means[g][k] /= float64(res.Pixels[g])
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}
