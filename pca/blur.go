package pca

import (
	"errors"
	"math"
	"sync"

	"gonum.org/v1/gonum/floats"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"featurelab/imgproc"
	"featurelab/internal/parallel"
)

// bandValues is about how many values of the component pictures BlurMetric holds at
// once: 1 M values, 8 MB, a band of 8 rows of the tabletop's 100 components.
var bandValues = 1 << 20

// sumBlock is a length the blocks of OpenBLAS's products (its Q of 256 or 384 values on
// x86-64) divide: bands of a multiple of it give G to the bit as one product over all
// the pixels did on the real tabletop, other bands to rounding.
const sumBlock = 768

// BlurMetricBytes is about what BlurMetric holds at once, whatever the pictures: a band
// of the component pictures and two bands blurred.
func BlurMetricBytes() int64 { return 3 * 8 * int64(bandValues) }

// BlurMetric is the D × D matrix R = G^½, G = (BV)ᵀ(BV), that maps scores to the scores
// of the same pictures seen through a Gaussian blur B of sigma pixels: for scores s and
// t, ‖(s − t)R‖ is the distance between the two pictures' reconstructions blurred
// (without the model's Scale, which multiplies every distance alike). The pictures are
// w × h with c channels. A learner run on S·R fits the blurred pictures, so a shift of a
// sharp edge by a pixel weighs much less than in S, at the cost of one blur of the D
// component pictures and one D × D × P product, whatever the number of images; it holds
// a band of rows of the component pictures at a time (bandValues), blurred and not.
// progress, when not nil, is told of each band done, of how many.
func (m *Model) BlurMetric(w, h, c int, sigma float64, progress func(done, total int)) (*mat.Dense, error) {
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
	// The component pictures blurred where they lie, each pixel's D values a row of V:
	// a tap of the blur adds a row of D values to another, along a row of pixels, then
	// a whole row of pixels to another, down the columns; then G = (BV)ᵀ(BV) by
	// OpenBLAS's single-threaded rank-k update (see openblas), several times faster here
	// than gonum's pure-Go one. A band of rows of pixels at a time, G summed over the
	// bands: the whole pictures blurred would be another copy of the components, and
	// turning them to one picture after the other for a blur would cost much of its time.
	v := m.Components.RawMatrix()
	if v.Stride != D {
		return nil, errors.New("pca: BlurMetric needs the components' rows one after the other")
	}
	stride := w * c
	band := max(1, min(h, bandValues/(D*stride)))
	// Bands of a multiple of sumBlock values where the height allows, so that G is
	// summed in the blocks OpenBLAS's own product sums in.
	for b := band; b > band/2; b-- {
		if b*stride%sumBlock == 0 {
			band = b
			break
		}
	}
	kernel := imgproc.GaussianKernel(sigma)
	reach := len(kernel) / 2
	g := make([]float64, D*D)
	row := stride * D // one row of pixels' values
	across := make([]float64, min(band+2*reach, h)*row)
	// Two bands blurred: G is updated from one while the next is blurred into the other
	// (the update's OpenBLAS calls are few and uneven with few components: at D = 39 one
	// rank-32 update is two thirds of it, and a core sat idle).
	blurredBands := [2][]float64{make([]float64, band*row), make([]float64, band*row)}
	var adding sync.WaitGroup
	bands := (h + band - 1) / band
	workers := max(m.workers, 1)
	along := make([]int, len(kernel)) // the taps along a row, the same for every row
	for t := range along {
		along[t] = t * c * D
	}
	down := make([][]int, workers) // each worker's taps down a column
	for i := range down {
		down[i] = make([]int, len(kernel))
	}
	for y0 := 0; y0 < h; y0 += band {
		y1 := min(y0+band, h)
		lo, hi := max(y0-reach, 0), min(y1+reach, h)
		blurred := blurredBands[y0/band%2]
		// Along each row of pixels, the rows it reaches.
		parallel.For(workers, hi-lo, func(_, i int) {
			y := lo + i
			out := across[i*row : (i+1)*row]
			src := v.Data[y*stride*D : (y+1)*stride*D] // V's rows are D values apart
			inner := 0
			if w > 2*reach {
				// The pixels whose taps all fall inside the row, summed in one pass; the
				// edges are summed below from zero.
				inner = w - 2*reach
				taps(out[reach*c*D:(w-reach)*c*D], src, along, kernel)
				clear(out[:reach*c*D])
				clear(out[(w-reach)*c*D:])
			} else {
				clear(out)
			}
			for x := 0; x < w; x++ {
				if x == reach && inner > 0 {
					x = w - reach // the inside is done
				}
				for ch := 0; ch < c; ch++ {
					dst := out[(x*c+ch)*D : (x*c+ch+1)*D]
					for t, kv := range kernel {
						q := min(max(x+t-reach, 0), w-1)*c + ch
						floats.AddScaled(dst, kv, src[q*D:(q+1)*D])
					}
				}
			}
		})
		// Then down each column, a whole row of pixels at a time.
		parallel.For(workers, y1-y0, func(wk, i int) {
			y := y0 + i
			off := down[wk]
			for t := range off {
				off[t] = (min(max(y+t-reach, 0), h-1) - lo) * row
			}
			taps(blurred[i*row:(i+1)*row], across, off, kernel)
		})
		adding.Wait() // G takes the bands in order, each from its own buffer
		if progress != nil && y0 > 0 {
			progress(y0/band, bands)
		}
		n := (y1 - y0) * stride
		adding.Go(func() { gramAdd(g, blurred, n, D, workers) })
	}
	adding.Wait()
	if progress != nil {
		progress(bands, bands)
	}
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

// gramBlock is the width of the blocks of G that gramAdd shares out: fixed, so that each
// entry is the same sum whatever the number of workers.
const gramBlock = 32

// gramAdd adds AᵀA to the upper triangle of g (D × D), A being n × D with rows D apart:
// a block of G's columns against another on each of workers goroutines, each one
// single-threaded OpenBLAS call (a rank-k update on the diagonal, a product above it).
// The update is most of the blur metric's time, hence the sharing out.
func gramAdd(g, A []float64, n, D, workers int) {
	nb := (D + gramBlock - 1) / gramBlock
	type pair struct{ a, b int }
	var tasks []pair
	for a := 0; a < nb; a++ {
		for b := a; b < nb; b++ {
			tasks = append(tasks, pair{a, b})
		}
	}
	parallel.For(workers, len(tasks), func(_, i int) {
		a0, b0 := tasks[i].a*gramBlock, tasks[i].b*gramBlock
		na, nbw := min(gramBlock, D-a0), min(gramBlock, D-b0)
		if a0 == b0 {
			openblas.Dsyrk(blas.Upper, blas.Trans, na, n, 1, A[a0:], D, 1, g[a0*D+a0:], D)
			return
		}
		openblas.Dgemm(blas.Trans, blas.NoTrans, na, nbw, n, 1, A[a0:], D, A[b0:], D, 1, g[a0*D+b0:], D)
	})
}
