package features

import (
	"context"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// bpFlipTol scales the gain a flip of z_nk must make before BP-means takes it: a flip
// must lower the row's squared residual by more than bpFlipTol·(‖r‖² + ‖a_k‖²). Flips
// whose gain is rounding noise — e.g. of a base feature that is 0 on centred data — would
// otherwise be taken or not by the luck of the last bit.
const bpFlipTol = 1e-12

// BPMeans learns a binary feature allocation of the rows of X with BP-means (MAD-Bayes
// Alg. 1), minimising the BP-means objective ‖X − ZA‖²_F + λ²K (eq. 6) over the number of
// features K, the N×K allocation Z and the K×D features A, at λ² = opt.Lambda2 > 0; with
// opt.Lambda2 = 0 it chooses λ² and K from its λ² path (penalisedPath).
//
// Each of opt.Restarts restarts (default 100) starts from BP-means++ (see plusPlus; a coin
// decides whether from the paper's base feature or, as the reference code, from no
// feature) and visits the rows in a random order of its own, as the reference code does.
// Per row it re-chooses the row's code — over all 2^K codes while K ≤ 10, by single flips
// of z_nk (Alg. 1 as printed) above — where leaving a feature that no other row owns also
// removes it and earns λ² back; then it gives the row a new feature equal to its residual
// when the residual's squared norm exceeds λ². After each sweep over the rows the
// redundant features are removed (see solveA) and A = (Z'Z)⁻¹Z'X. A restart stops when an
// iteration no longer lowers the objective, or after opt.MaxIter iterations (default
// 1000). Every step lowers the objective or leaves it as it is, so it never rises.
//
// The result has at least one feature: the last feature is never removed, so a huge λ²
// gives K = 1 — one feature, the mean of the rows that own it. Restarts run on
// opt.Workers goroutines and the result depends only on opt.Seed. The fixed-K variant of
// the reference code (λ² = 0, K given) is K-features: see KFeatures.
func BPMeans(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	return runPenalised(ctx, "bpmeans", X, opt, func(x []float64, n, d int) bpRunner {
		return &bpWorker{st: newBPState(x, n, d), order: make([]int, n)}
	})
}

// bpWorker is one worker's scratch for BP-means restarts.
type bpWorker struct {
	st    *bpState
	order []int
}

func (w *bpWorker) state() *bpState { return w.st }

// run does one restart: BP-means++, then sweeps and A-steps until the objective stops
// falling. It returns the number of iterations. When trace is not nil the objective after
// the initialisation and after every iteration is appended to it.
func (w *bpWorker) run(ctx context.Context, lambda2 float64, maxIter int, rng *rand.Rand, trace *[]float64) (int, error) {
	st := w.st
	for i := range w.order {
		w.order[i] = i
	}
	rng.Shuffle(len(w.order), func(i, j int) { w.order[i], w.order[j] = w.order[j], w.order[i] })
	st.plusPlus(lambda2, rng.Uint64()&1 == 0, rng)
	obj := bpObjective(st.rss, lambda2, st.k)
	if trace != nil {
		*trace = append(*trace, obj)
	}
	iters := 0
	for iters < maxIter {
		if err := ctx.Err(); err != nil {
			return iters, err
		}
		changes := st.sweep(w.order, lambda2)
		removed := st.solveA()
		iters++
		next := bpObjective(st.rss, lambda2, st.k)
		if trace != nil {
			*trace = append(*trace, next)
		}
		// The first iteration always counts: the initial A is not yet least squares.
		if iters > 1 && changes == 0 && removed == 0 {
			break
		}
		if !(next < obj-bpFlipTol*obj) {
			break
		}
		obj = next
	}
	return iters, nil
}

// sweep is step 1 of MAD-Bayes Alg. 1 over the rows in the given order: each row's code
// is improved — exactly over all codes while K ≤ st.exactMaxK (exactRow), by single flips
// above (flipRow) — and then the row gets a new feature equal to its residual when that
// lowers the objective, i.e. when ‖r‖² > λ². It returns how many bits and features changed.
func (st *bpState) sweep(order []int, lambda2 float64) int {
	st.featureGram()
	st.stale = true
	changes := 0
	for _, i := range order {
		var ch int
		var rr float64
		if st.alive <= st.exactMaxK {
			ch, rr = st.exactRow(i, lambda2)
		} else {
			ch, rr = st.flipRow(i, lambda2)
		}
		changes += ch
		if rr > lambda2 {
			// A new feature equal to the residual zeroes it: the objective changes by
			// λ² − ‖r‖² < 0. (rr came from the code's value; check it on r itself.)
			r := st.rowResidual(i)
			if floats.Dot(r, r) > lambda2 {
				st.reserve(st.k + 1)
				j := st.addFeature(r, i)
				st.gramRow(j)
				st.stale = true
				changes++
			}
		}
	}
	return changes
}

// flipRow is the Z-step of MAD-Bayes Alg. 1 for row i: for k = 1..K in turn it sets z_ik
// to whichever value gives the lower objective. The row's residual r is kept up to date,
// so a trial costs one dot product: flipping z_ik on changes ‖r‖² by ‖a_k‖² − 2r·a_k, off
// by ‖a_k‖² + 2r·a_k; a flip that leaves feature k with no owner also removes it and earns
// λ² back. It returns the number of flips made and the row's new squared residual.
func (st *bpState) flipRow(i int, lambda2 float64) (int, float64) {
	r := st.rowResidual(i)
	zi := st.zrow(i)
	rr := floats.Dot(r, r)
	changes := 0
	for j := range zi {
		own := st.owners[j]
		if own == 0 {
			continue // dead: its last owner left it earlier in this sweep
		}
		a := st.feature(j)
		an := st.anorm[j]
		ra := floats.Dot(r, a)
		tol := bpFlipTol * (rr + an)
		if zi[j] != 0 {
			delta := an + 2*ra
			if own == 1 {
				if st.alive == 1 {
					continue // keep at least one feature
				}
				delta -= lambda2 // the feature goes with its last owner: K falls by one
			}
			if delta < -tol {
				floats.Add(r, a)
				rr = floats.Dot(r, r)
				zi[j] = 0
				st.owners[j]--
				if st.owners[j] == 0 {
					st.alive--
					st.stale = true
				}
				changes++
			}
		} else if delta := an - 2*ra; delta < -tol {
			floats.Sub(r, a)
			rr = floats.Dot(r, r)
			zi[j] = 1
			st.owners[j]++
			changes++
		}
	}
	return changes, rr
}
