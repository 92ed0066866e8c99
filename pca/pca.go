// Package pca projects images onto their principal components with the reference scaling
// of the MAD-Bayes code (tbroderick/bp-means, run_high_dim_pca.m): Y ← Y/√(N−1), centre,
// keep the top D directions V, scores X = (Y − m)V. Objective values computed on these
// scores are comparable with the published ones. It never forms a P×P matrix: an N×N
// Gram matrix when N ≤ P, a thin SVD when P is small, a randomized SVD for large N.
package pca

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Options controls Fit.
type Options struct {
	// Components is D, the number of components kept; 0 means no PCA (X = Y as it is).
	// It is capped at min(N−1, P).
	Components int
	// Seed seeds the randomized SVD used for large N.
	Seed uint64
	// Workers is the number of goroutines for the large products; 0 = GOMAXPROCS.
	Workers int

	path int // forces a path in tests: pathAuto, pathGram, pathSVD, pathRandom
}

const (
	pathAuto = iota
	pathGram
	pathSVD
	pathRandom
)

// randomizedAbove is the N above which the randomized SVD replaces the N×N Gram matrix.
const randomizedAbove = 3000

// Model maps pixels to scores and back.
type Model struct {
	N, P, D int
	// Mean is the column mean of the scaled data Y/√(N−1).
	Mean []float64
	// Components holds Vᵀ, D×P: row k is the k-th principal direction, of unit length
	// and orthogonal to the others (nil when Identity).
	Components *mat.Dense
	// Variance is the variance along each kept component (its squared singular value).
	Variance []float64
	// TotalVariance is the sum of all per-pixel sample variances.
	TotalVariance float64
	// Scale is √(N−1).
	Scale float64
	// Identity is true for --pca 0: scores are the pixels.
	Identity bool

	scores *mat.Dense // set by a path that gets the scores for free (UΣ on the Gram path)
}

// Fit computes the PCA of Y (N × P, one image per row) and returns the model and the
// N × D scores.
func Fit(Y *mat.Dense, opt Options) (*Model, *mat.Dense, error) {
	n, p := Y.Dims()
	if n < 2 {
		return nil, nil, fmt.Errorf("pca needs at least 2 images, got %d", n)
	}
	if opt.Components < 0 {
		return nil, nil, fmt.Errorf("pca components must be ≥ 0, got %d", opt.Components)
	}
	for _, v := range Y.RawMatrix().Data {
		if v-v != 0 { // NaN or ±Inf
			return nil, nil, errors.New("pca: the data contain NaN or Inf")
		}
	}
	if opt.Components == 0 {
		m := &Model{N: n, P: p, D: p, Identity: true, Scale: 1}
		return m, mat.DenseCopyOf(Y), nil
	}
	d := min(opt.Components, n-1, p)
	scale := math.Sqrt(float64(n - 1))
	m := &Model{N: n, P: p, D: d, Scale: scale, Mean: make([]float64, p)}

	// Yc = Y/√(N−1) − mean, formed once.
	yc := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		src, dst := Y.RawRowView(i), yc.RawRowView(i)
		for j, v := range src {
			dst[j] = v / scale
			m.Mean[j] += dst[j]
		}
	}
	for j := range m.Mean {
		m.Mean[j] /= float64(n)
	}
	for i := 0; i < n; i++ {
		row := yc.RawRowView(i)
		for j := range row {
			row[j] -= m.Mean[j]
			m.TotalVariance += row[j] * row[j]
		}
	}

	path := opt.path
	if path == pathAuto {
		switch {
		case n > randomizedAbove && p > randomizedAbove:
			path = pathRandom
		case n <= p:
			path = pathGram
		default:
			path = pathSVD
		}
	}
	var err error
	switch path {
	case pathGram:
		err = m.fitGram(yc, opt.Workers)
	case pathSVD:
		err = m.fitSVD(yc)
	default:
		err = m.fitRandomized(yc, opt.Seed)
	}
	if err != nil {
		return nil, nil, err
	}
	flips := m.fixSigns()
	scores := m.scores
	if scores == nil {
		scores = mat.NewDense(n, d, nil)
		scores.Mul(yc, m.Components.T())
	} else {
		for k, f := range flips {
			if f {
				for i := 0; i < n; i++ {
					scores.Set(i, k, -scores.At(i, k))
				}
			}
		}
		m.scores = nil
	}
	return m, scores, nil
}

// fitGram eigen-decomposes G = Yc·Ycᵀ (N×N): Yc = UΣVᵀ gives G = UΣ²Uᵀ and V = YcᵀUΣ⁻¹.
func (m *Model) fitGram(yc *mat.Dense, workers int) error {
	n, p := yc.Dims()
	g := mat.NewSymDense(n, nil)
	gram(g, yc, workers)
	var eig mat.EigenSym
	if !eig.Factorize(g, true) {
		return errors.New("pca: eigen-decomposition failed")
	}
	vals := eig.Values(nil)
	var u mat.Dense
	eig.VectorsTo(&u)
	// Largest first; U columns scaled by 1/σ give V = YcᵀUΣ⁻¹, and the scores are
	// YcV = UΣ, which costs nothing more.
	us := mat.NewDense(n, m.D, nil)
	m.scores = mat.NewDense(n, m.D, nil)
	m.Variance = make([]float64, m.D)
	for k := 0; k < m.D; k++ {
		idx := n - 1 - k
		lambda := max(vals[idx], 0)
		m.Variance[k] = lambda
		inv := 0.0
		if lambda > 1e-12*max(vals[n-1], 1e-300) {
			inv = 1 / math.Sqrt(lambda)
		}
		for i := 0; i < n; i++ {
			us.Set(i, k, u.At(i, idx)*inv)
			m.scores.Set(i, k, u.At(i, idx)*math.Sqrt(lambda))
		}
	}
	m.Components = mat.NewDense(m.D, p, nil)
	transposeMul(m.Components, yc, us, workers)
	return nil
}

// fitSVD takes the thin SVD of the N×P centred matrix, for small P.
func (m *Model) fitSVD(yc *mat.Dense) error {
	var svd mat.SVD
	if !svd.Factorize(yc, mat.SVDThin) {
		return errors.New("pca: SVD failed")
	}
	var v mat.Dense
	svd.VTo(&v)
	s := svd.Values(nil)
	_, p := yc.Dims()
	m.Components = mat.DenseCopyOf(v.Slice(0, p, 0, m.D).T())
	m.Variance = make([]float64, m.D)
	for k := range m.Variance {
		m.Variance[k] = s[k] * s[k]
	}
	return nil
}

// fitRandomized is the randomized SVD of Halko, Martinsson & Tropp: a Gaussian sketch
// with oversampling, two power iterations with QR re-orthonormalisation, then the SVD of
// the small projected matrix.
func (m *Model) fitRandomized(yc *mat.Dense, seed uint64) error {
	n, p := yc.Dims()
	l := min(m.D+10, n, p)
	rng := rand.New(rand.NewPCG(seed, 0x5ca1ab1e))
	omega := mat.NewDense(p, l, nil)
	for i := range omega.RawMatrix().Data {
		omega.RawMatrix().Data[i] = rng.NormFloat64()
	}
	var yq mat.Dense
	yq.Mul(yc, omega) // n×l
	q := orthonormal(&yq)
	for it := 0; it < 2; it++ {
		var z mat.Dense
		z.Mul(yc.T(), q) // p×l
		qz := orthonormal(&z)
		var y2 mat.Dense
		y2.Mul(yc, qz)
		q = orthonormal(&y2)
	}
	var b mat.Dense
	b.Mul(q.T(), yc) // l×p
	var svd mat.SVD
	if !svd.Factorize(&b, mat.SVDThin) {
		return errors.New("pca: SVD of the sketch failed")
	}
	var v mat.Dense
	svd.VTo(&v)
	s := svd.Values(nil)
	m.Components = mat.DenseCopyOf(v.Slice(0, p, 0, m.D).T())
	m.Variance = make([]float64, m.D)
	for k := range m.Variance {
		m.Variance[k] = s[k] * s[k]
	}
	return nil
}

func orthonormal(a *mat.Dense) *mat.Dense {
	var qr mat.QR
	qr.Factorize(a)
	var q mat.Dense
	qr.QTo(&q)
	r, c := a.Dims()
	return mat.DenseCopyOf(q.Slice(0, r, 0, c))
}

// fixSigns makes each component's largest-magnitude entry positive, so every path gives
// the same components; it reports which components it flipped.
func (m *Model) fixSigns() []bool {
	d, _ := m.Components.Dims()
	flips := make([]bool, d)
	for k := 0; k < d; k++ {
		row := m.Components.RawRowView(k)
		best, at := 0.0, 0
		for j, v := range row {
			if a := math.Abs(v); a > best*(1+1e-12) {
				best, at = a, j
			}
		}
		if row[at] < 0 {
			flips[k] = true
			floats.Scale(-1, row)
		}
	}
	return flips
}

// Transform maps one image row to its scores.
func (m *Model) Transform(y, dst []float64) []float64 {
	if m.Identity {
		return append(dst[:0], y...)
	}
	c := make([]float64, m.P)
	for j, v := range y {
		c[j] = v/m.Scale - m.Mean[j]
	}
	if cap(dst) < m.D {
		dst = make([]float64, m.D)
	}
	dst = dst[:m.D]
	for k := range dst {
		dst[k] = floats.Dot(c, m.Components.RawRowView(k))
	}
	return dst
}

// Inverse maps a score row back to pixels: (sVᵀ + m)·√(N−1).
func (m *Model) Inverse(s, dst []float64) []float64 {
	if m.Identity {
		return append(dst[:0], s...)
	}
	if cap(dst) < m.P {
		dst = make([]float64, m.P)
	}
	dst = dst[:m.P]
	copy(dst, m.Mean)
	for k, sk := range s[:min(len(s), m.D)] {
		floats.AddScaled(dst, sk, m.Components.RawRowView(k))
	}
	floats.Scale(m.Scale, dst)
	return dst
}

// ExplainedRatio is each component's share of the total variance.
func (m *Model) ExplainedRatio() []float64 {
	out := make([]float64, len(m.Variance))
	if m.TotalVariance > 0 {
		for k, v := range m.Variance {
			out[k] = v / m.TotalVariance
		}
	}
	return out
}

// gramChunk is the number of columns the Gram product works on at a time, so the
// N rows of a chunk stay in cache while every pair of rows is multiplied.
const gramChunk = 1024

// gram sets g = yc·ycᵀ. Columns are split into chunks, each worker owns a range of
// chunks and sums its own partial Gram matrix; the partials are added in a fixed order,
// so the result does not depend on scheduling.
func gram(g *mat.SymDense, yc *mat.Dense, workers int) {
	n, p := yc.Dims()
	chunks := (p + gramChunk - 1) / gramChunk
	workers = clampWorkers(workers, chunks)
	partial := make([][]float64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			acc := make([]float64, n*n)
			for c := w * chunks / workers; c < (w+1)*chunks/workers; c++ {
				lo, hi := c*gramChunk, min((c+1)*gramChunk, p)
				for i := 0; i < n; i++ {
					ri := yc.RawRowView(i)[lo:hi]
					for j := 0; j <= i; j++ {
						acc[i*n+j] += floats.Dot(ri, yc.RawRowView(j)[lo:hi])
					}
				}
			}
			partial[w] = acc
		}(w)
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for _, acc := range partial {
				s += acc[i*n+j]
			}
			g.SetSym(i, j, s)
		}
	}
}

// transposeMul sets dst (D×P) = wᵀ·yc (w N×D, yc N×P). Columns are split over workers
// in cache-sized chunks; within a chunk each output row is a sum of scaled rows of yc,
// a long contiguous axpy.
func transposeMul(dst, yc, w *mat.Dense, workers int) {
	n, p := yc.Dims()
	d, _ := dst.Dims()
	chunks := (p + gramChunk - 1) / gramChunk
	workers = clampWorkers(workers, chunks)
	var wg sync.WaitGroup
	for t := 0; t < workers; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			for c := t * chunks / workers; c < (t+1)*chunks/workers; c++ {
				lo, hi := c*gramChunk, min((c+1)*gramChunk, p)
				for k := 0; k < d; k++ {
					out := dst.RawRowView(k)[lo:hi]
					i := 0
					for ; i+4 <= n; i += 4 {
						axpy4(out, w.At(i, k), w.At(i+1, k), w.At(i+2, k), w.At(i+3, k),
							yc.RawRowView(i)[lo:hi], yc.RawRowView(i+1)[lo:hi],
							yc.RawRowView(i+2)[lo:hi], yc.RawRowView(i+3)[lo:hi])
					}
					for ; i < n; i++ {
						floats.AddScaled(out, w.At(i, k), yc.RawRowView(i)[lo:hi])
					}
				}
			}
		}(t)
	}
	wg.Wait()
}

// axpy4 adds a0·y0 + a1·y1 + a2·y2 + a3·y3 to out, reading and writing out once for four
// rows: the product is bound by memory traffic on out, not by arithmetic.
func axpy4(out []float64, a0, a1, a2, a3 float64, y0, y1, y2, y3 []float64) {
	y0, y1, y2, y3 = y0[:len(out)], y1[:len(out)], y2[:len(out)], y3[:len(out)]
	for j := range out {
		out[j] += a0*y0[j] + a1*y1[j] + a2*y2[j] + a3*y3[j]
	}
}

func clampWorkers(workers, jobs int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(1, min(workers, jobs))
}
