package pca

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"featurelab/imgproc"
)

// BlurMetric is the D × D matrix R = G^½, G = (BV)ᵀ(BV), that maps scores to the scores
// of the same pictures seen through a Gaussian blur B of sigma pixels: for scores s and
// t, ‖(s − t)R‖ is the distance between the two pictures' reconstructions blurred
// (without the model's Scale, which multiplies every distance alike). The pictures are
// w × h with c channels. A learner run on S·R fits the blurred pictures, so a shift of a
// sharp edge by a pixel weighs much less than in S, at the cost of one blur of the D
// component pictures and one D × D × P product, whatever the number of images; it holds
// two D × P float64 copies of the components meanwhile.
func (m *Model) BlurMetric(w, h, c int, sigma float64) (*mat.Dense, error) {
	if w*h*c != m.P {
		return nil, errors.New("pca: BlurMetric's picture size does not match the model's pixels")
	}
	if m.Identity || m.D == 0 {
		// Without components the pictures are the scores: blurring them is no D × D map
		// (at P × P it would not fit in memory).
		return nil, errors.New("pca: BlurMetric needs principal components (the no-PCA mode has none)")
	}
	D := m.D
	R := mat.NewDense(D, D, nil)
	// The component pictures one after the other (Vᵀ), blurred, then G = (BVᵀ)(BVᵀ)ᵀ by
	// OpenBLAS's single-threaded rank-k update (see openblas): 0.08 s for the tabletop's
	// 230 400 × 100 components, where gonum's Go took 0.75 s.
	v := m.Components.RawMatrix()
	vt := make([]float64, D*m.P)
	const block = 256 // pixels a pass: their D values are read once, written to D streams
	for p0 := 0; p0 < m.P; p0 += block {
		for j := p0; j < min(p0+block, m.P); j++ {
			for d, x := range v.Data[j*v.Stride : j*v.Stride+D] {
				vt[d*m.P+j] = x
			}
		}
	}
	blurred := imgproc.SmoothPictures(vt, w, h, c, D, sigma, m.workers)
	g := make([]float64, D*D)
	openblas.Dsyrk(blas.Upper, blas.NoTrans, D, m.P, 1, blurred, m.P, 0, g, D)
	G := mat.NewSymDense(D, g)
	var eig mat.EigenSym
	if !eig.Factorize(G, true) {
		return nil, errors.New("pca: the blurred components' Gram matrix has no eigendecomposition")
	}
	var Q mat.Dense
	eig.VectorsTo(&Q)
	vals := eig.Values(nil)
	var QL mat.Dense // Q Λ^½, then R = Q Λ^½ Qᵀ
	QL.CloneFrom(&Q)
	for e, l := range vals {
		f := math.Sqrt(max(l, 0))
		for a := 0; a < D; a++ {
			QL.Set(a, e, QL.At(a, e)*f)
		}
	}
	R.Mul(&QL, Q.T())
	return R, nil
}
