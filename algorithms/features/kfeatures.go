package features

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// maxFeatures is the largest K the feature learners accept: a row's code is a uint64.
const maxFeatures = 64

// MaxK is the largest K the feature learners accept.
const MaxK = maxFeatures

// kfReseedRounds is how many times one A-step re-seeds degenerate features before it
// drops them for good (see kfWork.aStep).
const kfReseedRounds = 2

// KFeatures runs K-features (MAD-Bayes, Alg. 4): it minimises ‖X − ZA‖²_F over binary
// N×K allocations Z and K×D features A for a fixed K = opt.K (default 5), keeping the best
// of opt.Restarts (default 100) restarts.
//
// Each restart is initialised as in the paper's §5 (like K-means++): feature 1 is the mean
// of all rows and every row owns it; feature k > 1 is the residual of a row drawn with
// probability proportional to its squared residual, and is owned by the rows whose residual
// it lowers. Odd restarts, and all restarts on centred data (PCA scores, whose mean is
// zero), draw feature 1 that way too instead of using the mean, as the reference code
// does: the mean base is a poor start for data without a shared background. Then Z-steps
// and A-steps alternate until Z stops changing (at most opt.MaxIter, default 1000,
// Z-steps). The Z-step is exact for K ≤ 10 (all 2^K codes of a row are compared) and
// exact block by block above (every change within a block of 6 features is compared,
// zblocks.go); a row keeps its code unless another is strictly better. The
// A-step is A = (Z'Z)⁻¹Z'X. When Z'Z is singular — a feature nobody owns, or a column of Z
// that is a combination of the others — the later such feature is re-seeded from the row
// with the largest residual, as in the initialisation; if that cannot help (every row is
// already fitted exactly) the feature is dropped, so Result.K can be smaller than opt.K.
// The objective never rises.
//
// With more than kfSearchRows rows the random restarts search on that many rows spread
// through X, and the best fits they find start restarts on all of X (search.go).
//
// K must lie in 1…min(64, N): with more features than rows Z'Z is always singular.
// BPObjective is Objective + λ²K with λ² = opt.Lambda2. Progress reports Stage "restart".
func KFeatures(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	start := time.Now()
	cfg, err := learn.Check(X, opt)
	if err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	k := opt.KOrDefault()
	switch {
	case k < 1:
		return nil, fmt.Errorf("k must be ≥ 1, got %d", k)
	case k > maxFeatures:
		return nil, fmt.Errorf("k must be ≤ %d, got %d", maxFeatures, k)
	case k > n:
		return nil, fmt.Errorf("k = %d exceeds the number of rows N = %d (Z'Z would be singular)", k, n)
	}
	p := newKFProblem(X)
	fit, err := p.best(ctx, k, cfg, opt.Seed, nil, restartProgress(opt.Progress, k))
	if err != nil {
		return nil, err
	}
	res, err := p.result(fit)
	if err != nil {
		return nil, err
	}
	res.Lambda2 = opt.Lambda2
	res.BPObjective = res.Objective + opt.Lambda2*float64(res.K)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// restartProgress adapts opt.Progress to the restart counter of learn.BestOfRestarts.
func restartProgress(fn func(learn.Progress), k int) func(done, total int, best float64) {
	if fn == nil {
		return nil
	}
	return func(done, total int, best float64) {
		fn(learn.Progress{Stage: "restart", Done: done, Total: total, K: k, Best: best})
	}
}

// kfGramMaxN is the largest N for which the restarts keep the N×N Gram matrix XXᵀ
// (32 MB at N = 2048); above it b_n = Ax_n is recomputed from X at every A-step.
const kfGramMaxN = 2048

// K-features works on the N×N factor L of X = LQ instead of X (D > N) only where that
// pays. L costs N² memory and the factorisation about 2N²D flops, once; each row product
// of a restart then costs N instead of D, and a run does about kfLQWork of them per row
// (restarts × iterations × K: 100 × 10 × 5). So L is used when 2N²D < kfLQWork·N·(D − N)
// and N ≤ kfLQMaxN (L ≤ 8 MB): for the raw pixels of a folder of ordinary size (100
// photos of 230 400 values, 100 dice of 196), not for 10 000 images of 12 288 values (an
// 800 MB L and hours of factorisation to save a fifth of the columns) nor for D just
// above N.
const (
	kfLQMaxN = 1024
	kfLQWork = 5000
)

// kfProblem is the read-only data every restart of K-features shares.
type kfProblem struct {
	orig *mat.Dense // the X the caller gave
	// x is what the restarts work on: orig itself, or, where it pays (kfLQMaxN), the N×N
	// matrix L of the LQ factorisation orig = LQ. Every quantity K-features computes — the
	// mean, residuals, A = (Z'Z)⁻¹Z'X, b = Ax, G = AAᵀ — is a combination of rows of X or
	// an inner product of such combinations, so it depends on X only through XXᵀ = LLᵀ: the
	// run on L gives the same Z, at the cost of N instead of D columns. The final A is
	// recomputed on orig.
	x     *mat.Dense
	n, d  int       // dimensions of x
	xsq   []float64 // ‖x_n‖²
	total float64   // ‖X‖²_F
	mean  []float64 // the mean row, the initial base feature
	xmean []float64 // x_n·mean
	// gram is XXᵀ (N×N, row-major) when it pays to keep it (see kfWork), else nil.
	gram []float64
	// tiny is a squared residual too small to seed a feature from.
	tiny float64
	// centred is set when the mean row is zero (PCA scores are centred).
	centred bool
	// sample is where the random restarts search when N > kfSearchRows.
	sample searchSet
}

func newKFProblem(X *mat.Dense) *kfProblem {
	n, d := X.Dims()
	p := &kfProblem{orig: X, x: X}
	if d > n && n <= kfLQMaxN && 2*n*d < kfLQWork*(d-n) {
		p.x = lqFactor(X)
		d = n
	}
	p.n, p.d = n, d
	p.xsq = make([]float64, n)
	p.mean = make([]float64, d)
	p.xmean = make([]float64, n)
	var maxSq float64
	for i := 0; i < n; i++ {
		row := p.x.RawRowView(i)
		p.xsq[i] = floats.Dot(row, row)
		p.total += p.xsq[i]
		maxSq = max(maxSq, p.xsq[i])
		floats.Add(p.mean, row)
	}
	floats.Scale(1/float64(n), p.mean)
	for i := range p.xmean {
		p.xmean[i] = floats.Dot(p.x.RawRowView(i), p.mean)
	}
	p.tiny = 1e-12 * maxSq
	p.centred = floats.Dot(p.mean, p.mean) <= 1e-20*maxSq
	// Keeping XXᵀ makes b_n = Ax_n = (XXᵀZ(Z'Z)⁻¹)_n cost K² per row instead of K·D, with
	// XXᵀZ updated in N per changed bit of Z; worth it unless N is large next to D.
	if n <= kfGramMaxN && n <= 8*d {
		var s mat.SymDense
		s.SymOuterK(1, p.x)
		p.gram = make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := s.At(i, j)
				p.gram[i*n+j], p.gram[j*n+i] = v, v
			}
		}
	}
	return p
}

// lqFactor returns the N×N lower-triangular L of X = LQ (N < D), so that LLᵀ = XXᵀ.
func lqFactor(X *mat.Dense) *mat.Dense {
	n, _ := X.Dims()
	a := mat.DenseCopyOf(X).RawMatrix()
	tau := make([]float64, n)
	work := []float64{0}
	lapack64.Gelqf(a, tau, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Gelqf(a, tau, work, len(work))
	L := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		copy(L.RawRowView(i)[:i+1], a.Data[i*a.Stride:i*a.Stride+i+1])
	}
	return L
}

// kfFit is the best restart of one K-features run, in the problem's working space.
type kfFit struct {
	k          int
	z          []uint64 // row codes: bit j set when the row owns feature j
	obj        float64
	iters      int
	objectives []float64
}

// best runs the restarts of K-features with K = k and returns the best one. The first
// len(starts) restarts begin from starts instead of a random initialisation
// (kfWork.startFrom).
func (p *kfProblem) best(ctx context.Context, k int, cfg learn.Config, seed uint64, starts []kfStart,
	progress func(done, total int, best float64)) (*kfFit, error) {
	if cfg.Restarts <= len(starts) || p.search() == nil {
		return p.restarts(ctx, k, cfg, seed, starts, progress, nil)
	}
	starts, objectives, err := p.searched(ctx, k, cfg, seed, starts, progress)
	if err != nil {
		return nil, err
	}
	cfg.Restarts = len(starts)
	fit, err := p.restarts(ctx, k, cfg, seed, starts, nil, nil)
	if err != nil {
		return nil, err
	}
	fit.objectives = objectives
	return fit, nil
}

// restarts runs the restarts of best on p itself; kept, when not nil, is given every
// restart's fit.
func (p *kfProblem) restarts(ctx context.Context, k int, cfg learn.Config, seed uint64, starts []kfStart,
	progress func(done, total int, best float64), kept *keptFits) (*kfFit, error) {
	var walk *grayWalk
	if k <= kfExactK {
		walk = newGrayWalk(k)
	}
	var bestBits atomic.Uint64
	bestBits.Store(math.Float64bits(math.Inf(1)))
	newWorker := func() learn.RestartFunc[*kfFit] {
		w := newKFWork(p, k, walk, cfg.MaxIter)
		w.starts = starts
		mine := &kfFit{z: make([]uint64, p.n), obj: math.Inf(1)}
		return func(r int, rng *rand.Rand) (*kfFit, float64, error) {
			obj, iters, err := w.run(ctx, r, rng)
			if err != nil {
				return nil, 0, err
			}
			if kept != nil {
				kept.add(r, w.k, obj, w.z)
			}
			// learn.BestOfRestarts keeps, per worker, the first restart with the lowest
			// objective; a worker's restarts come in increasing order, so "strictly lower"
			// keeps mine in step with its choice and mine can be reused without allocating.
			if obj < mine.obj {
				mine.k, mine.obj, mine.iters = w.k, obj, iters
				copy(mine.z, w.z)
				for {
					old := bestBits.Load()
					if obj >= math.Float64frombits(old) || bestBits.CompareAndSwap(old, math.Float64bits(obj)) {
						break
					}
				}
			}
			return mine, obj, nil
		}
	}
	var prog func(done, total int)
	if progress != nil {
		prog = func(done, total int) { progress(done, total, math.Float64frombits(bestBits.Load())) }
	}
	fit, _, objectives, err := learn.BestOfRestarts(ctx, cfg.Restarts, cfg.Workers, seed, newWorker, prog)
	if err != nil {
		return nil, err
	}
	// Detach the winner from its worker's buffers.
	out := *fit
	out.z = append([]uint64(nil), fit.z...)
	out.objectives = objectives
	return &out, nil
}

// result turns a fit into a Result on the caller's X: Z as 0/1 entries, A = (Z'Z)⁻¹Z'X
// by the package's A-step and the objective recomputed on X, free of the restarts'
// incremental updates.
func (p *kfProblem) result(fit *kfFit) (*learn.Result, error) {
	n := p.n
	_, d := p.orig.Dims()
	Z := mat.NewDense(n, fit.k, nil)
	for i, code := range fit.z {
		row := Z.RawRowView(i)
		for r := code; r != 0; r &= r - 1 {
			row[bits.TrailingZeros64(r)] = 1
		}
	}
	A := mat.NewDense(fit.k, d, nil)
	if err := aStep(A, Z, p.orig, nil); err != nil {
		return nil, fmt.Errorf("final A-step: %w", err)
	}
	obj := codesResidual(p.orig, fit.z, A.RawMatrix().Data, make([]float64, d))
	return &learn.Result{
		Z:                 Z,
		A:                 A,
		K:                 fit.k,
		Objective:         obj,
		RestartObjectives: fit.objectives,
		Iterations:        fit.iters,
	}, nil
}

// codesResidual returns ‖X − ZA‖²_F for Z given as row codes and A as K×D row-major;
// row is scratch of length D.
func codesResidual(X *mat.Dense, z []uint64, a []float64, row []float64) float64 {
	_, d := X.Dims()
	var total float64
	for i, code := range z {
		copy(row, X.RawRowView(i))
		for r := code; r != 0; r &= r - 1 {
			j := bits.TrailingZeros64(r)
			floats.Sub(row, a[j*d:j*d+d])
		}
		total += floats.Dot(row, row)
	}
	return total
}
