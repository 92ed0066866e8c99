package algorithms

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// bpConfig is the part of Options that BP-means and collapsed BP-means use, checked and
// with the defaults filled in.
type bpConfig struct {
	lambda2           float64
	restarts, maxIter int
	workers           int
	seed              uint64
}

// bpConfigFrom checks opt for the learner algo ("bpmeans" or "collapsed") and fills in
// the defaults: 100 restarts, at most 1000 iterations per restart.
func bpConfigFrom(algo string, opt Options) (bpConfig, error) {
	c := bpConfig{lambda2: opt.Lambda2, restarts: opt.Restarts, maxIter: opt.MaxIter,
		workers: opt.Workers, seed: opt.Seed}
	switch {
	case !(opt.Lambda2 > 0) || math.IsInf(opt.Lambda2, 0):
		// λ² = 0 would make every image its own feature; the fixed-K variant is K-features.
		return c, fmt.Errorf("lambda2 must be > 0 for %s, got %v", algo, opt.Lambda2)
	case c.restarts < 0:
		return c, fmt.Errorf("restarts must be ≥ 0, got %d", c.restarts)
	case c.maxIter < 0:
		return c, fmt.Errorf("maxiter must be ≥ 0, got %d", c.maxIter)
	case c.workers < 0:
		return c, fmt.Errorf("workers must be ≥ 0, got %d", c.workers)
	}
	if c.restarts == 0 {
		c.restarts = 100
	}
	if c.maxIter == 0 {
		c.maxIter = 1000
	}
	return c, nil
}

// bpCheckData rejects a data matrix the learners cannot use: empty, or holding NaN or ±Inf.
func bpCheckData(X *mat.Dense) error {
	if X == nil || X.IsEmpty() {
		return errors.New("X is empty: need at least one row and one column")
	}
	n, _ := X.Dims()
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("X has %v at row %d, column %d", v, i, j)
			}
		}
	}
	return nil
}

// bpFlat returns X's entries as one row-major N×D slice, copying only when X is a view
// with a stride wider than its columns.
func bpFlat(X *mat.Dense) []float64 {
	raw := X.RawMatrix()
	if raw.Stride == raw.Cols {
		return raw.Data[:raw.Rows*raw.Cols]
	}
	out := make([]float64, raw.Rows*raw.Cols)
	for i := 0; i < raw.Rows; i++ {
		copy(out[i*raw.Cols:(i+1)*raw.Cols], raw.Data[i*raw.Stride:])
	}
	return out
}
