package segment

import (
	"fmt"
	"math"
	"runtime"
)

// Method names accepted by Options.Method.
const (
	MethodKPYP    = "kpyp"
	MethodKMeans  = "kmeans"
	MethodDPMeans = "dpmeans"
)

// Kernel distances accepted by Options.Distance.
const (
	DistanceGeodesic  = "geodesic"
	DistanceEuclidean = "euclidean"
)

// Defaults of the zero Options fields.
const (
	// DefaultTruncation is the KPYP's truncation C. With the last component held at its
	// prior (tailStats) every segment needs a located cluster of its own, and busy photos
	// need many. Chosen on the BSDS500 train photos, where it scores a higher PRI than a
	// smaller C with every seed and a larger C does no better (docs/DESIGN.md,
	// "Measurements behind the code"). The prior's pseudo-pixels ν⁺ = nwPseudo·ζN/C
	// are shared among the C clusters, so C also sets how strongly each cluster's
	// covariance is held.
	DefaultTruncation = 30
	DefaultMaxIter    = 100
	DefaultTol        = 1e-5
	// DefaultWidth is the kernel width ψ_c in normalised image coordinates (rows and
	// columns both run over [0, 1]): a stick's kernel falls to 1/2 at 0.42 of the image
	// from its cluster's location and to 1/20 at 0.87, so one cluster can still cover a
	// background that spans the image while same-coloured regions at opposite sides tend
	// to get clusters of their own.
	DefaultWidth = 0.5
	// DefaultK is the number of clusters of K-means, and the target number of clusters
	// from which DP-means chooses λ² when Lambda2 is 0.
	DefaultK = 5
	// DefaultCell is the side of the cells of pixels that share a location: on the
	// BSDS500 train photos it scores as well as smaller cells, and is faster.
	DefaultCell = 16
	// DefaultStride fits the KPYP to every 4th pixel each way: on the BSDS500 train
	// photos it scores as every 2nd pixel does in about half the time; the prior's
	// strength scales with the pixels fitted, so the fit's balance of prior and data
	// does not change.
	DefaultStride = 4
	// DefaultTexture is whether the command line and the window add the texture
	// features (Options' zero value does not): the largest single gain on BSDS500, since
	// a textured region's brightness spread is one Gaussian where its shades would be
	// several.
	DefaultTexture = true
	// DefaultEdgeCost is the geodesic distance's cost β of a colour step: a step across
	// an edge of 1.5 colour units (ColourUnit ΔE) costs β·(1.5 − 1) = 1, as much as
	// crossing the whole image. On the BSDS500 train photos PRI is flat from β = 2 on.
	DefaultEdgeCost = 2.0
	// DefaultPower is the power ζ of the likelihood. On the BSDS500 train photos it
	// scores better than the plain likelihood and as well as powers either side of it
	// (docs/DESIGN.md, "Measurements behind the code").
	DefaultPower = 0.5
	// DefaultDiscount is the Pitman–Yor discount d the command line and the window use
	// (Options' zero value is the paper's d = 0, as DefaultTexture is for the texture).
	// On the BSDS500 train photos it scores the same PRI as d = 0, with fewer segments
	// that match the human maps better (a lower VoI) on every seed (docs/DESIGN.md,
	// "Measurements behind the code"). At a cluster's own location its stick is then
	// Beta(0.8, α + 0.2c), the Pitman–Yor stick, with a prior mean below the DP's
	// Beta(1, α); why that leaves fewer segments on these photos has not been traced.
	// PRI falls beyond d = 0.3 as regions merge.
	DefaultDiscount = 0.2
)

// maxLabels caps Truncation and K: labels are stored in 16-bit label images.
const maxLabels = 1 << 16

// Bounds of the options, which the command line and the window check before a run.
const (
	MaxLabels = maxLabels // the most segments (Truncation) or clusters (K)
	// MaxStride and MaxCell bound Stride and Cell: a photo is fitted at most 1
	// megapixel, so a stride or cell beyond a thousand pixels leaves nothing to fit.
	MaxStride = 1024
	MaxCell   = 4096
)

// maxCells caps the size of the N×C responsibility matrix (2^27 float64s = 1 GiB).
const maxCells = 1 << 27

// Options configures every segmenter. Zero fields take the documented defaults; a field
// a method does not use is ignored.
type Options struct {
	// Method is "kpyp" (default), "kmeans" or "dpmeans".
	Method string
	// Truncation is the number C of stick-breaking components the variational posterior
	// keeps (KPYP). Default DefaultTruncation.
	Truncation int
	// MaxIter caps the iterations (KPYP: VB iterations; K-means, DP-means: Lloyd or
	// batch iterations). Default 100.
	MaxIter int
	// Tol stops the KPYP when the change of the variational bound between two iterations
	// is below Tol times its size (or times the number of pixels, where the bound is
	// near 0) — or when the labels settle: fewer than 0.5% of the pixels change label —
	// and merge moves no longer raise the bound. Default 1e-5.
	Tol float64
	// Texture adds the mean and standard deviation of L* in a 5×5 window, and its
	// standard deviation in an 11×11 one, to the colour.
	Texture bool
	// LearnLocations refines the cluster locations x̂_c every few iterations by
	// maximising the variational bound with a quasi-Newton method (paper §3.5: L-BFGS)
	// instead of keeping them where they start. It applies to the Euclidean distance;
	// with the geodesic one the locations are always searched (see Distance).
	LearnLocations bool
	// LearnWidths learns the kernel widths ψ_c the same way (with either distance).
	LearnWidths bool
	// Distance is the kernel's dist(x, x̂_c), which the paper leaves open (eqs.
	// (19)–(20)): "geodesic" (default), the shortest path over the fitted pixels from the
	// cell of x̂_c, each step costing its length plus EdgeCost times the colour
	// difference it crosses beyond one colour unit, so a cluster's kernel stays high
	// over the region it sits in and falls across the edges around it; or "euclidean",
	// ‖x − x̂_c‖. With the geodesic distance the locations are searched over the cells
	// (the kernel has no gradient in x̂_c) after every few iterations, as LearnLocations
	// does with L-BFGS for the Euclidean one, and split moves part a cluster's far
	// pieces into clusters of their own.
	Distance string
	// EdgeCost is the geodesic distance's cost β per colour unit of a step's colour
	// difference beyond the first. Default DefaultEdgeCost.
	EdgeCost float64
	// Power ζ ∈ (0, 1] raises the likelihood to ζ: each fitted pixel counts as ζ
	// observations of its colour (the coarsened posterior of Miller & Dunson 2019). The
	// smoothed colours of neighbouring pixels are not independent, and with ζ = 1 the
	// bound pays for a textured region's second cluster with a small fraction of what
	// it gains. Default DefaultPower.
	Power float64
	// Width is the kernel width ψ_c of k(x, x̂_c; ψ_c) = exp(−‖x − x̂_c‖²/ψ_c²), in
	// normalised coordinates (x = (row/H, col/W)); the starting width when LearnWidths
	// is set. Default DefaultWidth (0.5).
	Width float64
	// Cell is the side, in pixels, of the cells of the location lattice: the pixels of a
	// cell share its centre as their location and so, by the paper's eqs. (44)–(45),
	// one set of stick-breaking weights. 1 gives every pixel its own location.
	// Default DefaultCell.
	Cell int
	// Discount d ∈ [0, 1) caps the kernel at 1 − d: the sticks are then
	// Beta(1 − d, α + c·d) at a cluster's own location, the stick of a plain Pitman–Yor
	// process, and still vanish far from it. The paper's KPYP is d = 0, the zero value;
	// the command line and the window use DefaultDiscount.
	Discount float64
	// Stride s fits the KPYP to every s-th pixel in each direction (Cell is then counted
	// in those pixels' spacing: the cells keep their size in the image) and labels every
	// pixel by eq. (50) at the fitted posterior: the label the model gives a new
	// observation there. 1 fits every pixel. A small image is fitted at the largest
	// stride up to s that keeps 2 500 pixels, so an icon is fitted whole. Default
	// DefaultStride.
	Stride int
	// K is the number of clusters of "kmeans" and the target number of clusters from
	// which "dpmeans" chooses λ² when Lambda2 is 0. Default 5.
	K int
	// Lambda2 is DP-means' penalty λ² per cluster; 0 chooses it by the farthest-first
	// heuristic of Kulis & Jordan for K clusters.
	Lambda2 float64
	// Seed makes a run reproducible: the same seed gives the same labels.
	Seed uint64
	// Workers is the number of goroutines the pixels are split over.
	// 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when set, is called after every iteration with its number (from 1) and
	// the variational bound (KPYP) or the objective (K-means, DP-means). It is called
	// from the goroutine running Segment.
	Progress func(iter int, bound float64)
	// Report, when set, is told how far a long step within an iteration has come
	// (stage, done, total): K-means' seeding and assignment, which with many segments
	// take seconds each. It may be called from any goroutine, concurrently.
	Report func(stage string, done, total int)
	// Settling, when set, is called after every KPYP iteration, before Progress, with
	// the share of the fitted pixels whose label changed in it: the iterations end once
	// it is at most LabelTol and no merge is accepted, so it tells how far they have to
	// go, where the bound does not (it jumps at every merge).
	Settling func(changed float64)
}

// Result is what every segmenter returns.
type Result struct {
	// Labels holds one label per pixel, row-major (index y·Width + x). Labels run over
	// 0..Segments−1, numbered in order of first appearance in the raster.
	Labels []int32
	// Width and Height are the image size in pixels.
	Width, Height int
	// Segments is the number of labels actually used.
	Segments int
	// Iterations is the number of iterations run.
	Iterations int
	// Bound is the KPYP variational bound after every iteration (nats); for K-means, its
	// objective after every assignment step, the last included; for DP-means, its
	// objective after every pass that moved pixels.
	Bound []float64
	// Seconds is the wall-clock time of the run.
	Seconds float64
	// Means holds each segment's mean colour as sRGB in [0, 1] (R, G, B), for display.
	Means [][]float64
	// Lambda2 is the λ² DP-means used (chosen when Options.Lambda2 is 0).
	Lambda2 float64
}

// withDefaults returns opt with zero fields replaced by the defaults, or an error naming
// the first invalid field.
func (opt Options) withDefaults() (Options, error) {
	if opt.Method == "" {
		opt.Method = MethodKPYP
	}
	switch opt.Method {
	case MethodKPYP, MethodKMeans, MethodDPMeans:
	default:
		return opt, fmt.Errorf("segment: Method must be %q, %q or %q, got %q",
			MethodKPYP, MethodKMeans, MethodDPMeans, opt.Method)
	}
	if opt.Truncation < 0 || opt.Truncation > maxLabels {
		return opt, fmt.Errorf("segment: Truncation must be in [1, %d], got %d", maxLabels, opt.Truncation)
	}
	if opt.Truncation == 0 {
		opt.Truncation = DefaultTruncation
	}
	if opt.MaxIter < 0 {
		return opt, fmt.Errorf("segment: MaxIter must be ≥ 0, got %d", opt.MaxIter)
	}
	if opt.MaxIter == 0 {
		opt.MaxIter = DefaultMaxIter
	}
	if !(opt.Tol >= 0) || math.IsInf(opt.Tol, 0) {
		return opt, fmt.Errorf("segment: Tol must be a finite number ≥ 0, got %v", opt.Tol)
	}
	if opt.Tol == 0 {
		opt.Tol = DefaultTol
	}
	if !(opt.Width >= 0) || math.IsInf(opt.Width, 0) {
		return opt, fmt.Errorf("segment: Width must be a finite number > 0, got %v", opt.Width)
	}
	if opt.Width == 0 {
		opt.Width = DefaultWidth
	}
	if !(opt.Discount >= 0 && opt.Discount < 1) {
		return opt, fmt.Errorf("segment: Discount must be in [0, 1), got %v", opt.Discount)
	}
	switch opt.Distance {
	case "":
		opt.Distance = DistanceGeodesic
	case DistanceGeodesic, DistanceEuclidean:
	default:
		return opt, fmt.Errorf("segment: Distance must be %q or %q, got %q", DistanceGeodesic, DistanceEuclidean, opt.Distance)
	}
	if !(opt.EdgeCost >= 0) || math.IsInf(opt.EdgeCost, 0) {
		return opt, fmt.Errorf("segment: EdgeCost must be a finite number ≥ 0, got %v", opt.EdgeCost)
	}
	if opt.EdgeCost == 0 {
		opt.EdgeCost = DefaultEdgeCost
	}
	if !(opt.Power >= 0 && opt.Power <= 1) {
		return opt, fmt.Errorf("segment: Power must be in (0, 1], got %v", opt.Power)
	}
	if opt.Power == 0 {
		opt.Power = DefaultPower
	}
	if opt.Cell < 0 || opt.Cell > MaxCell {
		return opt, fmt.Errorf("segment: Cell must be in [1, %d], got %d", MaxCell, opt.Cell)
	}
	if opt.Cell == 0 {
		opt.Cell = DefaultCell
	}
	if opt.Stride < 0 || opt.Stride > MaxStride {
		return opt, fmt.Errorf("segment: Stride must be in [1, %d], got %d", MaxStride, opt.Stride)
	}
	if opt.Stride == 0 {
		opt.Stride = DefaultStride
	}
	if opt.K < 0 || opt.K > maxLabels {
		return opt, fmt.Errorf("segment: K must be in [1, %d], got %d", maxLabels, opt.K)
	}
	if opt.K == 0 {
		opt.K = DefaultK
	}
	if !(opt.Lambda2 >= 0) || math.IsInf(opt.Lambda2, 0) {
		return opt, fmt.Errorf("segment: Lambda2 must be a finite number ≥ 0, got %v", opt.Lambda2)
	}
	if opt.Workers < 0 {
		return opt, fmt.Errorf("segment: Workers must be ≥ 0, got %d", opt.Workers)
	}
	if opt.Workers == 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	return opt, nil
}
