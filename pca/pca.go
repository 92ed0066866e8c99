package pca

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"
)

// DefaultComponents is the number of components the reference keeps, and the command
// line's default for --pca.
const DefaultComponents = 100

const (
	// relTol is the smallest variance, relative to the largest, that a component may
	// carry and still be computed. Below it the Gram path cannot recover the direction
	// (V = Ycᵀu/σ divides rounding noise by σ), and every path reports such a component
	// with zero variance and zero scores: the data have no spread along it.
	relTol = 1e-9

	// oversample is the fewest columns of a Krylov block, and the margin between D and
	// min(N, P) below which the exact paths are used.
	oversample = 10
	// krylovDepth is q, the number of times the block Krylov path applies YcYcᵀ.
	krylovDepth = 6
)

// path is the factorisation Fit uses.
type path int

const (
	pathAuto path = iota
	pathGram
	pathSVD
	pathRandomized
)

// String names the path as Model.Method reports it.
func (p path) String() string {
	switch p {
	case pathGram:
		return "gram"
	case pathSVD:
		return "svd"
	case pathRandomized:
		return "randomized"
	}
	return "auto"
}

// Options configures Fit.
type Options struct {
	// Components is D, the number of principal components to keep. It is capped
	// silently at min(N−1, P), the most a centred N × P matrix can have. 0 means no
	// PCA (the reference's --pca 0): the scores are the data as they are. Negative
	// values are an error. The reference, and the command line, use DefaultComponents.
	Components int
	// Seed seeds the Gaussian test block of the randomized path, used only when N and P
	// are both well above D. The other paths are exact and ignore it.
	Seed uint64
	// Workers is the number of goroutines for the large products; below 1 means one
	// per CPU. Results do not depend on it.
	Workers int

	// Progress, when set, is told how much of the work is done, in increasing order, one
	// call at a time: the blocks of the Gram path's two passes over the data (the
	// eigen-decomposition between them is not counted), or the randomized path's
	// passes. The thin SVD path (P < N, few pixel values) does not report.
	Progress func(done, total int)

	// Context, when set, stops the fit early: Fit returns its error between passes over
	// the data, which are short even on a large folder.
	Context context.Context

	// path forces a factorisation; tests use it to compare the paths.
	path path
}

// Model is a fitted PCA: what is needed to map scores back to pixels and new images to
// scores. Its fields are read-only after Fit.
type Model struct {
	// N and P are the rows (images) and columns (pixel values) of the fitted data, and
	// D the number of components: the columns of the scores. In identity mode D = P.
	N, P, D int
	// Mean is m, the column mean of the scaled data Y/sqrt(N−1) (length P; nil in
	// identity mode), as in the reference's run_high_dim_pca.m.
	Mean []float64
	// Components is V, P × D with orthonormal columns ordered by decreasing variance;
	// each column's largest-magnitude entry is positive. Nil in identity mode.
	Components *mat.Dense
	// Variance is the sample variance of the data along each component (the squared
	// singular values of the centred, scaled data), in decreasing order. A component
	// along which the data have no spread has variance 0 and zero scores.
	Variance []float64
	// TotalVariance is the sum of the per-pixel sample variances of the data, so
	// Variance[d]/TotalVariance is the fraction component d explains. Zero in identity
	// mode.
	TotalVariance float64
	// Scale is sqrt(N−1), the reference's scaling (1 in identity mode).
	Scale float64
	// Identity reports the no-PCA mode (Components = 0): scores are the data as they are.
	Identity bool
	// Method names the factorisation used: "gram", "svd", "randomized" or "identity".
	Method string

	workers int
}

// errNoVariance is returned when every row of Y is the same.
var errNoVariance = errors.New("pca: Y has no variance: all rows (images) are identical")

// Fit computes the PCA of the N × P data matrix Y (one image per row) with the
// reference scaling and returns the model and the N × D scores X = (Y/sqrt(N−1) − m)V.
// Y is not modified. With Components = 0 the scores are a copy of Y and the model is
// the identity map.
//
// Fit returns an error if Y has fewer than 2 rows, contains NaN or ±Inf, has no
// variance at all, or Components is negative.
func Fit(Y *mat.Dense, opt Options) (*Model, *mat.Dense, error) {
	if Y == nil || Y.IsEmpty() {
		return nil, nil, errors.New("pca: Y is empty")
	}
	return fit(denseRows(Y), opt)
}

// Fit32 is Fit for data stored as float32: Y is n × p, row-major and contiguous, the
// compact rows a folder of images is loaded into (half the memory of float64). The
// randomized path multiplies in float32; every other step, and every result, is float64.
func Fit32(Y []float32, n, p int, opt Options) (*Model, *mat.Dense, error) {
	if n <= 0 || p <= 0 {
		return nil, nil, errors.New("pca: Y is empty")
	}
	if len(Y) != n*p {
		return nil, nil, fmt.Errorf("pca: Y has %d values, not %d × %d", len(Y), n, p)
	}
	return fit(rows[float32]{data: Y, n: n, p: p, stride: p}, opt)
}

// fit is Fit for either element type.
func fit[T sample](y rows[T], opt Options) (*Model, *mat.Dense, error) {
	n, p := y.n, y.p
	if opt.Components < 0 {
		return nil, nil, fmt.Errorf("pca: Components must be ≥ 0, got %d", opt.Components)
	}
	if n < 2 {
		return nil, nil, fmt.Errorf("pca: need at least 2 rows (images), got %d", n)
	}
	workers := workerCount(opt.Workers)
	scale := math.Sqrt(float64(n - 1))
	// The column sums double as the finiteness check: NaN or ±Inf anywhere makes its
	// column's sum non-finite, which saves a pass over the data.
	mean := columnMeans(y, 1/scale, workers)
	for _, v := range mean {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, nonFinite(y)
		}
	}
	if opt.Components == 0 {
		m := &Model{N: n, P: p, D: p, Scale: 1, Identity: true, Method: "identity", workers: workers}
		return m, y.dense(), nil
	}

	d := min(opt.Components, n-1, p)
	m := &Model{N: n, P: p, D: d, Mean: mean, Scale: scale, workers: workers}

	pth := choosePath(n, p, d, opt.path)
	m.Method = pth.String()
	var f factors
	var err error
	start := time.Now()
	switch pth {
	case pathGram:
		f, err = fitGram(y, mean, d, 1/scale, workers, opt.Progress, opt.Context)
	case pathSVD:
		f, err = fitSVD(y, mean, d, 1/scale)
	default:
		f, err = fitKrylov(y, mean, d, 1/scale, opt.Seed, workers, opt.Progress, opt.Context)
	}
	if err != nil {
		return nil, nil, err
	}
	if opt.path == pathAuto {
		_, w := work(n, p, d)
		learnRate(pth, w, time.Since(start))
	}
	fixSigns(f.V, f.scores, workers)
	m.Components, m.Variance, m.TotalVariance = f.V, f.variance, f.total
	return m, f.scores, nil
}

// factors is what each factorisation path hands back to Fit.
type factors struct {
	V        *mat.Dense // P × D, orthonormal columns
	scores   *mat.Dense // N × D
	variance []float64  // D, decreasing; zero for components without spread
	total    float64    // sum of the squared centred, scaled data
}

// choosePath picks the cheapest exact factorisation for an n × p matrix and d
// components, or the randomized SVD when both sides are large.
func choosePath(n, p, d int, forced path) path {
	if forced != pathAuto {
		return forced
	}
	if 4*(d+oversample) <= min(n, p) {
		return pathRandomized
	}
	if n <= p {
		return pathGram
	}
	return pathSVD
}

// checkTotal rejects data whose total variance overflows: their squares are beyond
// float64, and every factorisation would return NaN.
func checkTotal(total float64) error {
	if math.IsInf(total, 0) || math.IsNaN(total) {
		return errors.New("pca: the variance of the data overflows float64; the values are too large")
	}
	return nil
}

// strongComponents returns how many of the leading variances (decreasing) exceed relTol
// times the largest, or errNoVariance if the largest is not positive.
func strongComponents(variance []float64) (int, error) {
	if len(variance) == 0 || !(variance[0] > 0) {
		return 0, errNoVariance
	}
	r := 0
	for r < len(variance) && variance[r] > relTol*variance[0] {
		r++
	}
	return r, nil
}

// nonFinite reports the first NaN or ±Inf of Y in row-major order, or, if there is
// none, that a column's sum overflows.
func nonFinite[T sample](y rows[T]) error {
	n, p := y.n, y.p
	for i := range n {
		for j, v := range y.row(i) {
			if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("pca: Y[%d,%d] is %v; the data must be finite", i, j, v)
			}
		}
	}
	return fmt.Errorf("pca: the sums of the %d × %d data overflow float64; the values are too large", n, p)
}
