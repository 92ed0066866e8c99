package pca

import "gonum.org/v1/gonum/mat"

// sample is the element type of the data Fit reads: float32, the compact rows a folder
// of images is loaded into, or float64, a gonum matrix.
type sample interface{ float32 | float64 }

// rows is a read-only N × P row-major matrix of samples; row i starts at i·stride.
type rows[T sample] struct {
	data   []T
	n, p   int
	stride int
}

// denseRows views a gonum matrix as rows, without copying.
func denseRows(Y *mat.Dense) rows[float64] {
	raw := Y.RawMatrix()
	return rows[float64]{data: raw.Data, n: raw.Rows, p: raw.Cols, stride: raw.Stride}
}

// row returns row i (length p), aliasing the data.
func (y rows[T]) row(i int) []T {
	return y.data[i*y.stride : i*y.stride+y.p]
}

// dense returns a float64 copy of y as a gonum matrix.
func (y rows[T]) dense() *mat.Dense {
	c := mat.NewDense(y.n, y.p, nil)
	for i := range y.n {
		dst := c.RawRowView(i)
		for j, v := range y.row(i) {
			dst[j] = float64(v)
		}
	}
	return c
}
