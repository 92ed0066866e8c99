package cluster

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// A Bregman divergence d_φ(x, μ) = φ(x) − φ(μ) − ⟨x − μ, ∇φ(μ)⟩ pairs with a regular
// exponential family (Jiang, Kulis & Jordan 2012, §2; Banerjee et al. 2005), and the
// small-variance limit of that family's DP mixture is DP-means with d_φ in place of the
// squared distance (their §3.2, Eq. 3). For every Bregman divergence the point minimising
// Σ d_φ(xₙ, μ) over a cluster is the arithmetic mean of its members, so the mean update
// of K-means carries over unchanged.
//
//	euclidean  φ(x) = ‖x‖²           d = ‖x − μ‖²                     Gaussian
//	kl         φ(x) = Σ x log x      d = Σ x log(x/μ)  (Σx = Σμ = 1)  multinomial
//	idiv       φ(x) = Σ x log x − x  d = Σ x log(x/μ) − x + μ         Poisson
//
// KL is the I-divergence restricted to the simplex, so both share one formula; "kl"
// normalises every row to sum 1 first.

// The names of the divergences Options.Divergence accepts ("" is Euclidean).
const (
	Euclidean = "euclidean"
	KL        = "kl"
	IDiv      = "idiv"
)

// bregman names a Bregman divergence.
type bregman int

const (
	bregEuclidean bregman = iota
	bregKL
	bregIDiv
)

// bregmanFloor is the smallest value a centre coordinate takes inside a logarithm. A bin
// a centre lacks would make the divergence infinite; with the floor it costs x·log(x/1e-12)
// ≈ 27.6x, large enough to keep such rows out and finite so nothing becomes Inf or NaN.
const bregmanFloor = 1e-12

// parseDivergence resolves Options.Divergence.
func parseDivergence(name string) (bregman, error) {
	switch name {
	case "", Euclidean:
		return bregEuclidean, nil
	case KL:
		return bregKL, nil
	case IDiv:
		return bregIDiv, nil
	}
	return 0, fmt.Errorf("divergence must be one of euclidean, kl, idiv; got %q", name)
}

func (b bregman) String() string {
	return [...]string{Euclidean, KL, IDiv}[b]
}

// bregData is the data a Bregman clustering works on: the rows y (N×D, row-major; rows
// normalised to sum 1 for KL) and, for KL and I-divergence, ly = log(max(y, floor)) so a
// divergence costs no logarithm of the data.
type bregData struct {
	kind bregman
	n, d int
	y    []float64
	ly   []float64
}

// newBregData validates X for the divergence and prepares it.
func newBregData(X *mat.Dense, kind bregman) (*bregData, error) {
	if err := learn.CheckData(X); err != nil {
		return nil, err
	}
	n, d := X.Dims()
	b := &bregData{kind: kind, n: n, d: d}
	if kind == bregEuclidean {
		b.y = learn.FlatRows(X)
		return b, nil
	}
	b.y = make([]float64, 0, n*d)
	for i := 0; i < n; i++ {
		row := X.RawRowView(i)
		var sum float64
		for j, v := range row {
			if v < 0 {
				return nil, fmt.Errorf("divergence %v needs non-negative data: X has %v at row %d, column %d", kind, v, i, j)
			}
			sum += v
		}
		if kind == bregKL {
			if !(sum > 0) {
				return nil, fmt.Errorf("divergence kl treats rows as histograms and needs a positive sum: row %d sums to %v", i, sum)
			}
			for _, v := range row {
				b.y = append(b.y, v/sum)
			}
		} else {
			b.y = append(b.y, row...)
		}
	}
	b.ly = make([]float64, n*d)
	floorLogs(b.ly, b.y)
	return b, nil
}

// row returns row i of the prepared data and its logarithms (nil for euclidean).
func (b *bregData) row(i int) (y, ly []float64) {
	y = b.y[i*b.d : (i+1)*b.d]
	if b.ly != nil {
		ly = b.ly[i*b.d : (i+1)*b.d]
	}
	return y, ly
}

// div returns d_φ(x, μ) for a row x with logs lx and a centre μ with logs lμ (the logs
// are ignored, and may be nil, for euclidean). When the value is at least bound it may
// stop early and return +Inf: callers looking for a minimum pass the best so far.
func (b *bregData) div(x, lx, mu, lmu []float64, bound float64) float64 {
	if b.kind == bregEuclidean {
		return sqDistBounded(x, mu, bound)
	}
	return genIDiv(x, lx, mu, lmu)
}

// genIDiv returns Σⱼ xⱼ(log xⱼ − log μⱼ) − xⱼ + μⱼ given the logs. Every term is ≥ 0 up to
// the floor, a zero xⱼ contributes μⱼ (0·log 0 = 0), and identical vectors give exactly 0.
func genIDiv(x, lx, mu, lmu []float64) float64 {
	mu, lx, lmu = mu[:len(x)], lx[:len(x)], lmu[:len(x)]
	var s float64
	for j, xj := range x {
		s += xj*(lx[j]-lmu[j]) - xj + mu[j]
	}
	return max(s, 0)
}

// floorLogs sets dst[j] = log(max(src[j], bregmanFloor)).
func floorLogs(dst, src []float64) {
	dst = dst[:len(src)]
	for j, v := range src {
		dst[j] = math.Log(max(v, bregmanFloor))
	}
}

// ColorHistograms turns each row of pixels — one image with values in [0,1], pixel-
// interleaved (RGBRGB… for channels = 3, grey for channels = 1) — into a normalised
// histogram, the data of KL DP-means (Jiang, Kulis & Jordan 2012, §5). Colour images get
// the joint histogram over bins^3 cells, cell (r·bins + g)·bins + b, the usual colour
// histogram of image retrieval: it keeps which colours occur, where per-channel marginals
// would not. A value v falls in bin min(⌊v·bins⌋, bins−1), values outside [0,1] in the end
// bins. Each output row sums to 1. bins may be at most 256 for grey and 32 for colour.
func ColorHistograms(pixels *mat.Dense, channels, bins int) (*mat.Dense, error) {
	if pixels == nil || pixels.IsEmpty() {
		return nil, errors.New("color histograms: no pixels")
	}
	if channels != 1 && channels != 3 {
		return nil, fmt.Errorf("color histograms: channels must be 1 or 3, got %d", channels)
	}
	maxBins := 256
	if channels == 3 {
		maxBins = 32 // 32³ = 32768 cells per image already
	}
	if bins < 1 || bins > maxBins {
		return nil, fmt.Errorf("color histograms: bins must lie in 1…%d for %d channel(s), got %d", maxBins, channels, bins)
	}
	n, p := pixels.Dims()
	if p%channels != 0 {
		return nil, fmt.Errorf("color histograms: %d values per row is not a whole number of %d-channel pixels", p, channels)
	}
	cells := bins
	if channels == 3 {
		cells = bins * bins * bins
	}
	H := mat.NewDense(n, cells, nil)
	inv := 1 / float64(p/channels)
	for i := 0; i < n; i++ {
		row, h := pixels.RawRowView(i), H.RawRowView(i)
		for j := 0; j < p; j += channels {
			cell := 0
			for c := 0; c < channels; c++ {
				v := row[j+c]
				if math.IsNaN(v) {
					return nil, fmt.Errorf("color histograms: NaN at row %d, column %d", i, j+c)
				}
				bin := int(min(max(v, 0), 1) * float64(bins))
				cell = cell*bins + min(bin, bins-1)
			}
			h[cell]++
		}
		for j := range h {
			h[j] *= inv
		}
	}
	return H, nil
}
