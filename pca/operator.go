package pca

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"featurelab/internal/hugepage"
)

// centredOperator multiplies by Yc = Y·inv − 1mᵀ and its transpose without forming
// it: Yc X = inv·(Y X) − 1(mᵀX) and Ycᵀ Q = inv·(Yᵀ Q) − m(1ᵀQ), with Y X and Yᵀ Q one
// matrix product each in the element type of Y. The columns of Q are in the range of
// Yc, whose columns sum to zero, so 1ᵀQ is tiny and the second correction loses no
// precision; the first subtracts the mean image's projection, which float32 products
// carry to about 1e−6 of the mean's size, far inside the accuracy the tests demand.
type centredOperator[T sample] struct {
	y       rows[T]
	mean    []float64
	inv     float64
	workers int
	// in and out hold a product's operand and result in the element type of Y.
	in, out []T
}

func newCentredOperator[T sample](y rows[T], mean []float64, inv float64, l, workers int) *centredOperator[T] {
	op := &centredOperator[T]{y: y, mean: mean, inv: inv, workers: workers, in: make([]T, max(y.n, y.p)*l), out: make([]T, max(y.n, y.p)*l)}
	hugepage.Advise(op.in)
	hugepage.Advise(op.out)
	return op
}

// block is a rows × cols window of a row-major matrix of samples, row i at i·stride: a
// block of columns of the Krylov path's Ycᵀ Q, kept in the data's element type.
type block[T sample] struct {
	data               []T
	rows, cols, stride int
}

// row returns row i of the block.
func (b block[T]) row(i int) []T { return b.data[i*b.stride : i*b.stride+b.cols] }

// mul sets dst (N × l) = Yc X for X (P × l).
func (op *centredOperator[T]) mul(dst, X *mat.Dense) {
	p, l := X.Dims()
	in := op.in[:p*l]
	toSamples(in, X)
	// mX = mᵀX, the projection of the mean image, in float64.
	mX := make([]float64, l)
	for j := range p {
		for k, v := range X.RawRowView(j) {
			mX[k] += op.mean[j] * v
		}
	}
	op.product(dst, l, mX)
}

// mulBlock is mul for X a block of samples.
func (op *centredOperator[T]) mulBlock(dst *mat.Dense, X block[T]) {
	p, l := X.rows, X.cols
	in := op.in[:p*l]
	mX := make([]float64, l)
	for j := range p {
		row := X.row(j)
		copy(in[j*l:(j+1)*l], row)
		for k, v := range row {
			mX[k] += op.mean[j] * float64(v)
		}
	}
	op.product(dst, l, mX)
}

// product sets dst (N × l) = inv·Y·in − 1·mXᵀ, where op.in holds the P × l operand.
func (op *centredOperator[T]) product(dst *mat.Dense, l int, mX []float64) {
	n, p := op.y.n, op.y.p
	out := op.out[:n*l]
	gemm(blas.NoTrans, n, l, p, op.inv, op.y.data, op.y.stride, op.in[:p*l], out, op.workers)
	for i := range n {
		row := dst.RawRowView(i)
		for k := range l {
			row[k] = float64(out[i*l+k]) - mX[k]
		}
	}
}

// mulT sets the block dst (P × l) = Ycᵀ Q for Q (N × l), in the data's element type.
func (op *centredOperator[T]) mulT(dst block[T], Q *mat.Dense) {
	n, p := op.y.n, op.y.p
	_, l := Q.Dims()
	in, out := op.in[:n*l], op.out[:p*l]
	toSamples(in, Q)
	gemm(blas.Trans, p, l, n, op.inv, op.y.data, op.y.stride, in, out, op.workers)
	sumQ := make([]float64, l)
	for i := range n {
		for k, v := range Q.RawRowView(i) {
			sumQ[k] += v
		}
	}
	for j := range p {
		row := dst.row(j)
		for k := range l {
			row[k] = T(float64(out[j*l+k]) - op.mean[j]*sumQ[k])
		}
	}
}

// toSamples copies the rows × l matrix X into dst, contiguous, in the element type T.
func toSamples[T sample](dst []T, X *mat.Dense) {
	r, l := X.Dims()
	for i := range r {
		for k, v := range X.RawRowView(i) {
			dst[i*l+k] = T(v)
		}
	}
}
