package learn

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Config is the part of Options that every restart-based learner reads, checked and with
// the defaults filled in.
type Config struct {
	Restarts int    // independent restarts; default 100
	MaxIter  int    // iterations of one restart at most; default 1000
	Workers  int    // goroutines the restarts run on; 0 means runtime.GOMAXPROCS(0)
	Seed     uint64 // the run's seed
}

// Check is the one place a learner checks what it is given: the data matrix (CheckData),
// the restart, iteration and worker counts, and λ² (CheckLambda2). It returns the counts
// with their defaults: 100 restarts of at most 1000 iterations.
func Check(X *mat.Dense, opt Options) (Config, error) {
	c := Config{Restarts: opt.Restarts, MaxIter: opt.MaxIter, Workers: opt.Workers, Seed: opt.Seed}
	if err := CheckData(X); err != nil {
		return c, err
	}
	switch {
	case c.Restarts < 0:
		return c, fmt.Errorf("restarts must be ≥ 0, got %d", c.Restarts)
	case c.MaxIter < 0:
		return c, fmt.Errorf("maxiter must be ≥ 0, got %d", c.MaxIter)
	}
	if err := CheckWorkers(c.Workers); err != nil {
		return c, err
	}
	if err := CheckLambda2(opt.Lambda2); err != nil {
		return c, err
	}
	if c.Restarts == 0 {
		c.Restarts = DefaultRestarts
	}
	if c.MaxIter == 0 {
		c.MaxIter = DefaultMaxIter
	}
	return c, nil
}

// maxSumSquares bounds ‖X‖²_F. The learners sum squared distances between rows, means and
// features, which a few doublings of ‖X‖²_F bound; below this bound none of those sums
// can overflow float64 to +Inf (and a K-means row with every distance +Inf has no
// nearest centre).
const maxSumSquares = math.MaxFloat64 / (1 << 20)

// CheckData rejects a data matrix no learner can use: empty, holding NaN or ±Inf, or so
// large that the squared distances the learners sum overflow float64.
func CheckData(X *mat.Dense) error {
	if X == nil || X.IsEmpty() {
		return errors.New("X is empty: need at least one row and one column")
	}
	n, _ := X.Dims()
	var ss float64
	for i := 0; i < n; i++ {
		for j, v := range X.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("X has %v at row %d, column %d", v, i, j)
			}
			ss += v * v
		}
	}
	if !(ss <= maxSumSquares) {
		return fmt.Errorf("X is too large for float64: the sum of its squares is %.3g (at most %.3g); rescale the data", ss, maxSumSquares)
	}
	return nil
}

// CheckWorkers rejects a negative number of workers (0 means one per CPU).
func CheckWorkers(workers int) error {
	if workers < 0 {
		return fmt.Errorf("workers must be ≥ 0, got %d", workers)
	}
	return nil
}

// CheckLambda2 rejects a penalty λ² that is negative, NaN or infinite. Zero passes: for
// the learners that need a penalty it means "propose one from the data", and the fixed-K
// learners only report Objective + λ²K with it.
func CheckLambda2(lambda2 float64) error {
	switch {
	case !(lambda2 >= 0) || math.IsInf(lambda2, 0):
		return fmt.Errorf("lambda2 must be a finite number ≥ 0, got %v", lambda2)
	case lambda2 > maxSumSquares:
		// λ²K would overflow the objective; any λ² above ‖X‖² already allows one feature.
		return fmt.Errorf("lambda2 must be at most %.3g, got %v", maxSumSquares, lambda2)
	}
	return nil
}

// PositiveLambda2 rejects a λ² that the learner algo cannot run with: it must be finite
// and > 0, since λ² = 0 would make every image its own feature.
func PositiveLambda2(algo string, lambda2 float64) error {
	if !(lambda2 > 0) || math.IsInf(lambda2, 0) {
		return fmt.Errorf("lambda2 must be > 0 for %s, got %v", algo, lambda2)
	}
	return CheckLambda2(lambda2)
}

// FlatRows returns X's entries as one row-major N×D slice: X's own backing array when its
// rows have no gaps, otherwise a copy.
func FlatRows(X *mat.Dense) []float64 {
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
