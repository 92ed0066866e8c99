package pca

import (
	"errors"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// ShiftMaps returns the D × D matrices Tx and Ty that map the scores s of a picture to
// the scores of its derivatives along x and along y (central differences, one-sided at
// the border): s·Tx are the scores of ∂x(sVᵀ), projected on the components. A picture
// shifted by (u, v) pixels is, to first order, itself plus u·∂x + v·∂y of it, so these
// give, in score space, the directions along which a small shift of a feature's picture
// moves an image. The pictures are w × h with c channels, pixel value q·c + ch at
// q = y·w + x. Cost: one derivative of the D component pictures and two D × D × P
// products, a block of pixels at a time.
func (m *Model) ShiftMaps(w, h, c int) (tx, ty *mat.Dense, err error) {
	if w*h*c != m.P {
		return nil, nil, errors.New("pca: ShiftMaps' picture size does not match the model's pixels")
	}
	if m.Identity || m.D == 0 {
		return nil, nil, errors.New("pca: ShiftMaps needs principal components (the no-PCA mode has none)")
	}
	D := m.D
	v := m.Components.RawMatrix()
	tx, ty = mat.NewDense(D, D, nil), mat.NewDense(D, D, nil)
	const block = 1024 // pixel values a pass
	dx := make([]float64, block*D)
	dy := make([]float64, block*D)
	row := func(p int) []float64 { return v.Data[p*v.Stride : p*v.Stride+D] }
	for p0 := 0; p0 < m.P; p0 += block {
		b := min(block, m.P-p0)
		for p := p0; p < p0+b; p++ {
			q, ch := p/c, p%c
			x, y := q%w, q/w
			diff := func(dst []float64, lo, hi, span int) {
				a, z := row(lo*c+ch), row(hi*c+ch)
				f := 1 / float64(span)
				for d := range dst {
					dst[d] = (z[d] - a[d]) * f
				}
			}
			xl, xh := max(x-1, 0), min(x+1, w-1)
			yl, yh := max(y-1, 0), min(y+1, h-1)
			o := (p - p0) * D
			diff(dx[o:o+D], y*w+xl, y*w+xh, max(xh-xl, 1))
			diff(dy[o:o+D], yl*w+x, yh*w+x, max(yh-yl, 1))
		}
		// T += (∂V block)ᵀ · V block
		openblas.Dgemm(blas.Trans, blas.NoTrans, D, D, b, 1, dx, D, v.Data[p0*v.Stride:], v.Stride, 1, tx.RawMatrix().Data, D)
		openblas.Dgemm(blas.Trans, blas.NoTrans, D, D, b, 1, dy, D, v.Data[p0*v.Stride:], v.Stride, 1, ty.RawMatrix().Data, D)
	}
	return tx, ty, nil
}
