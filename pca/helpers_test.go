package pca

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// allPaths are the factorisations every invariant is checked on.
var allPaths = []path{pathGram, pathSVD, pathRandomized}

// uniform returns an n × p matrix of independent U(0,1) values, like pixels.
func uniform(n, p int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := mat.NewDense(n, p, nil)
	for i := range m.RawMatrix().Data {
		m.RawMatrix().Data[i] = rng.Float64()
	}
	return m
}

// lowRank returns an n × p matrix of rank `rank` with a decaying spectrum plus a little
// noise, like a set of images: the randomized path is accurate on such spectra (on a
// flat one it is approximate by design).
func lowRank(n, p, rank int, noise float64, seed uint64) *mat.Dense {
	a := uniform(n, rank, seed)
	b := uniform(rank, p, seed+1)
	for k := range rank {
		row := b.RawRowView(k)
		for j := range row {
			row[j] *= math.Pow(0.6, float64(k))
		}
	}
	var y mat.Dense
	y.Mul(a, b)
	e := uniform(n, p, seed+2)
	e.Scale(noise, e)
	y.Add(&y, e)
	return &y
}

// sampleVarianceSum is the sum over columns of the sample variance (N−1 denominator).
func sampleVarianceSum(Y *mat.Dense) float64 {
	n, p := Y.Dims()
	col := make([]float64, n)
	var s float64
	for j := range p {
		mat.Col(col, j, Y)
		s += stat.Variance(col, nil)
	}
	return s
}

// directSVD returns the singular values and right singular vectors of the centred,
// scaled Y computed the plain way, with the package's sign convention applied.
func directSVD(t *testing.T, Y *mat.Dense) ([]float64, *mat.Dense) {
	t.Helper()
	n, p := Y.Dims()
	yc := mat.DenseCopyOf(Y)
	yc.Scale(1/math.Sqrt(float64(n-1)), yc)
	col := make([]float64, n)
	for j := range p {
		mat.Col(col, j, yc)
		m := stat.Mean(col, nil)
		for i := range n {
			yc.Set(i, j, col[i]-m)
		}
	}
	var svd mat.SVD
	if !svd.Factorize(yc, mat.SVDThin) {
		t.Fatal("direct SVD failed")
	}
	var v mat.Dense
	svd.VTo(&v)
	for k := range min(n, p) {
		best := 0
		for j := range p {
			if math.Abs(v.At(j, k)) > math.Abs(v.At(best, k)) {
				best = j
			}
		}
		if v.At(best, k) < 0 {
			for j := range p {
				v.Set(j, k, -v.At(j, k))
			}
		}
	}
	return svd.Values(nil), &v
}

// checkOrthonormal fails unless VᵀV = I.
func checkOrthonormal(t *testing.T, name string, V *mat.Dense, tol float64) {
	t.Helper()
	_, d := V.Dims()
	var vtv mat.Dense
	vtv.Mul(V.T(), V)
	for i := range d {
		for j := range d {
			want := 0.0
			if i == j {
				want = 1
			}
			if got := vtv.At(i, j); math.Abs(got-want) > tol {
				t.Fatalf("%s: (VᵀV)[%d,%d] = %v, want %v", name, i, j, got, want)
			}
		}
	}
}

// maxAbsDiff is the largest absolute difference between a and b, which must have the
// same shape.
func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := range r {
		for j := range c {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// sumSquares is the squared Frobenius norm of X.
func sumSquares(X *mat.Dense) float64 {
	var s float64
	r, _ := X.Dims()
	for i := range r {
		for _, v := range X.RawRowView(i) {
			s += v * v
		}
	}
	return s
}
