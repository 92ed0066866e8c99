package pca

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"featurelab/internal/parallel"
)

// inverseBlock is the number of rows of V (pixels) one task maps back: 512 rows of 100
// components are 400 KiB, which stay in L2 while every score row uses them.
const inverseBlock = 512

// Inverse maps one row of scores (length D) back to pixels, the reference's
// reverse_high_dim_pca: (sVᵀ + m)·sqrt(N−1). It writes into dst if it has room for P
// values, else into a new slice, and returns it. In identity mode it copies s.
// Inverse panics if len(s) != D.
func (m *Model) Inverse(s, dst []float64) []float64 {
	if len(s) != m.D {
		panic(fmt.Sprintf("pca: Inverse of %d scores, want %d", len(s), m.D))
	}
	dst = resize(dst, m.P)
	if m.Identity {
		copy(dst, s)
		return dst
	}
	m.inverse(blas64.General{Rows: 1, Cols: m.D, Stride: m.D, Data: s},
		blas64.General{Rows: 1, Cols: m.P, Stride: m.P, Data: dst})
	return dst
}

// MeanPixels is the mean picture m·Scale in a new slice: what Inverse gives for zero
// scores, without its pass over the components. Zeros in identity mode.
func (m *Model) MeanPixels() []float64 {
	out := make([]float64, m.P)
	if m.Identity {
		return out
	}
	for k, v := range m.Mean {
		out[k] = v * m.Scale
	}
	return out
}

// InverseDense maps every row of the r × D score matrix S back to pixels and returns
// the r × P result. It panics if S does not have D columns.
func (m *Model) InverseDense(S *mat.Dense) *mat.Dense {
	r, c := S.Dims()
	if c != m.D {
		panic(fmt.Sprintf("pca: InverseDense of %d columns, want %d", c, m.D))
	}
	out := mat.NewDense(r, m.P, nil)
	if m.Identity {
		out.Copy(S)
		return out
	}
	m.inverse(S.RawMatrix(), out.RawMatrix())
	return out
}

// inverse sets each row of dst to (s Vᵀ + m)·Scale for the matching row s of S. Blocks
// of pixels are independent; each is one single-threaded OpenBLAS product of all the
// score rows with its rows of V (gonum's Gemv a row at a time is far slower when many
// features of large pictures are read), the same calls whatever the number of workers.
func (m *Model) inverse(S, dst blas64.General) {
	v := m.Components.RawMatrix()
	parallel.For(m.workers, blocks(m.P, inverseBlock), func(_, blk int) {
		p0 := blk * inverseBlock
		b := min(inverseBlock, m.P-p0)
		mean := m.Mean[p0 : p0+b]
		// dst[:, p0:p0+b] = S · (V[p0:p0+b, :])ᵀ
		openblas.Dgemm(blas.NoTrans, blas.Trans, S.Rows, b, m.D, 1, S.Data, S.Stride, v.Data[p0*v.Stride:], v.Stride, 0, dst.Data[p0:], dst.Stride)
		for i := range S.Rows {
			out := dst.Data[i*dst.Stride+p0 : i*dst.Stride+p0+b]
			for k := range out {
				out[k] = (out[k] + mean[k]) * m.Scale
			}
		}
	})
}

// Transform maps a new image row y (length P, same pixel layout and [0,1] scaling as
// the fitted data) to its D scores (y/sqrt(N−1) − m)V, the same map Fit applied to the
// training rows. It writes into dst if it has room for D values, else into a new slice,
// and returns it. In identity mode it copies y. Transform panics if len(y) != P.
func (m *Model) Transform(y, dst []float64) []float64 {
	if len(y) != m.P {
		panic(fmt.Sprintf("pca: Transform of %d values, want %d", len(y), m.P))
	}
	dst = resize(dst, m.D)
	if m.Identity {
		copy(dst, y)
		return dst
	}
	c := make([]float64, m.P)
	packRow(c, rows[float64]{data: y, n: 1, p: m.P, stride: m.P}, 0, 0, m.Mean, 1/m.Scale)
	v := m.Components.RawMatrix()
	blas64.Implementation().Dgemv(blas.Trans, m.P, m.D, 1, v.Data, v.Stride, c, 1, 0, dst, 1)
	return dst
}

// ExplainedRatio returns each component's fraction of the total variance, in order;
// their running sum is the explained-variance curve. Nil in identity mode.
func (m *Model) ExplainedRatio() []float64 {
	if m.Identity || m.TotalVariance <= 0 {
		return nil
	}
	out := make([]float64, len(m.Variance))
	for k, v := range m.Variance {
		out[k] = v / m.TotalVariance
	}
	return out
}

// resize returns dst with length n, reusing its storage when it is large enough.
func resize(dst []float64, n int) []float64 {
	if cap(dst) < n {
		return make([]float64, n)
	}
	return dst[:n]
}

// Mapped returns the model followed by a linear map F of the pixel values: its Inverse
// gives F(m.Inverse(s)) for every score vector s, because F is applied once to the mean
// and to each component. mapPixels gets a vector of P pixel values with cols values
// interleaved per pixel value, v[p·cols+j] (cols = 1 for the mean, D for the
// components), and returns F applied to each of the cols columns, laid out the same way.
// Shrinking reconstructions to thumbnails this way (imgproc.ShrinkToThumbnail) costs one
// pass over the components instead of one per image. It panics in identity mode, which
// has no components.
func (m *Model) Mapped(mapPixels func(v []float64, cols int) []float64) *Model {
	if m.Identity {
		panic("pca: Mapped of the identity model")
	}
	out := *m
	out.Mean = mapPixels(m.Mean, 1)
	out.P = len(out.Mean)
	v := m.Components.RawMatrix()
	if v.Stride != m.D {
		v = mat.DenseCopyOf(m.Components).RawMatrix()
	}
	out.Components = mat.NewDense(out.P, m.D, mapPixels(v.Data[:m.P*m.D], m.D))
	return &out
}
