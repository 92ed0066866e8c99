package cluster

import (
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
		return learn.SqDistBounded(x, mu, bound)
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
