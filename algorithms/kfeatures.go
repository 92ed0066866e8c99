package algorithms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// maxFeatures is the largest K the feature learners accept: a row's code is a uint64.
const maxFeatures = 64

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
// it lowers. Then Z-steps and A-steps alternate until Z stops changing (at most
// opt.MaxIter, default 1000, Z-steps). The Z-step is exact for K ≤ 16 (all 2^K codes of a
// row are compared) and coordinate flips above. The A-step is A = (Z'Z)⁻¹Z'X. When Z'Z is
// singular — a feature nobody owns, or a column of Z that is a combination of the others —
// the later such feature is re-seeded from the row with the largest residual, as in the
// initialisation; if that cannot help (every row is already fitted exactly) the feature is
// dropped, so Result.K can be smaller than opt.K. The objective never rises.
//
// K must lie in 1…min(64, N): with more features than rows Z'Z is always singular.
// BPObjective is Objective + λ²K with λ² = opt.Lambda2. Progress reports Stage "restart".
func KFeatures(ctx context.Context, X *mat.Dense, opt Options) (*Result, error) {
	start := time.Now()
	if err := kfCheckData(X); err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	cfg, err := kfConfigFrom(opt)
	if err != nil {
		return nil, err
	}
	k := opt.K
	if k == 0 {
		k = 5
	}
	switch {
	case k < 1:
		return nil, fmt.Errorf("k must be ≥ 1, got %d", k)
	case k > maxFeatures:
		return nil, fmt.Errorf("k must be ≤ %d, got %d", maxFeatures, k)
	case k > n:
		return nil, fmt.Errorf("k = %d exceeds the number of rows N = %d (Z'Z would be singular)", k, n)
	}
	p := newKFProblem(X)
	fit, err := p.best(ctx, k, cfg, opt.Seed, restartProgress(opt.Progress, k))
	if err != nil {
		return nil, err
	}
	res, err := p.result(fit)
	if err != nil {
		return nil, err
	}
	res.Algorithm = "kfeatures"
	res.Lambda2 = opt.Lambda2
	res.BPObjective = res.Objective + opt.Lambda2*float64(res.K)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// kfConfig is the part of Options that K-features and stepwise K-features share, resolved.
type kfConfig struct {
	restarts, maxIter, workers int
}

func kfConfigFrom(opt Options) (kfConfig, error) {
	c := kfConfig{restarts: opt.Restarts, maxIter: opt.MaxIter, workers: opt.Workers}
	switch {
	case c.restarts < 0:
		return c, fmt.Errorf("restarts must be ≥ 0, got %d", c.restarts)
	case c.maxIter < 0:
		return c, fmt.Errorf("maxiter must be ≥ 0, got %d", c.maxIter)
	case c.workers < 0:
		return c, fmt.Errorf("workers must be ≥ 0, got %d", c.workers)
	case opt.Lambda2 < 0 || math.IsNaN(opt.Lambda2) || math.IsInf(opt.Lambda2, 0):
		return c, fmt.Errorf("lambda2 must be a finite number ≥ 0, got %v", opt.Lambda2)
	}
	if c.restarts == 0 {
		c.restarts = 100
	}
	if c.maxIter == 0 {
		c.maxIter = 1000
	}
	return c, nil
}

// kfCheckData rejects a data matrix the learners cannot use.
func kfCheckData(X *mat.Dense) error {
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

// restartProgress adapts opt.Progress to the restart counter of bestOfRestarts.
func restartProgress(fn func(Progress), k int) func(done, total int, best float64) {
	if fn == nil {
		return nil
	}
	return func(done, total int, best float64) {
		fn(Progress{Stage: "restart", Done: done, Total: total, K: k, Best: best})
	}
}

// kfProblem is the read-only data every restart of K-features shares.
type kfProblem struct {
	orig *mat.Dense // the X the caller gave
	// x is what the restarts work on: orig itself, or, when D > N, the N×N matrix L of the
	// LQ factorisation orig = LQ. Every quantity K-features computes — the mean, residuals,
	// A = (Z'Z)⁻¹Z'X, b = Ax, G = AAᵀ — is a combination of rows of X or an inner product
	// of such combinations, so it depends on X only through XXᵀ = LLᵀ: the run on L gives the
	// same Z, at the cost of N instead of D columns. The final A is recomputed on orig.
	x    *mat.Dense
	n, d int       // dimensions of x
	xsq  []float64 // ‖x_n‖²
	mean []float64 // the mean row, the initial base feature
	// tiny is a squared residual too small to seed a feature from.
	tiny float64
}

func newKFProblem(X *mat.Dense) *kfProblem {
	n, d := X.Dims()
	p := &kfProblem{orig: X, x: X}
	if d > n {
		p.x = lqFactor(X)
		d = n
	}
	p.n, p.d = n, d
	p.xsq = make([]float64, n)
	p.mean = make([]float64, d)
	var maxSq float64
	for i := 0; i < n; i++ {
		row := p.x.RawRowView(i)
		p.xsq[i] = floats.Dot(row, row)
		maxSq = max(maxSq, p.xsq[i])
		floats.Add(p.mean, row)
	}
	floats.Scale(1/float64(n), p.mean)
	p.tiny = 1e-12 * maxSq
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
	a          []float64
	obj        float64
	iters      int
	objectives []float64
}

// best runs the restarts of K-features with K = k and returns the best one.
func (p *kfProblem) best(ctx context.Context, k int, cfg kfConfig, seed uint64,
	progress func(done, total int, best float64)) (*kfFit, error) {
	var walk *grayWalk
	if k <= maxExactK {
		walk = newGrayWalk(k)
	}
	var bestBits atomic.Uint64
	bestBits.Store(math.Float64bits(math.Inf(1)))
	newWorker := func() restartFunc[*kfFit] {
		w := newKFWork(p, k, walk, cfg.maxIter)
		mine := &kfFit{z: make([]uint64, p.n), a: make([]float64, k*p.d), obj: math.Inf(1)}
		return func(r int, rng *rand.Rand) (*kfFit, float64, error) {
			obj, iters, err := w.run(ctx, rng)
			if err != nil {
				return nil, 0, err
			}
			// bestOfRestarts keeps, per worker, the first restart with the lowest
			// objective; a worker's restarts come in increasing order, so "strictly lower"
			// keeps mine in step with its choice and mine can be reused without allocating.
			if obj < mine.obj {
				mine.k, mine.obj, mine.iters = w.k, obj, iters
				copy(mine.z, w.z)
				mine.a = append(mine.a[:0], w.aData[:w.k*p.d]...)
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
	fit, _, objectives, err := bestOfRestarts(ctx, cfg.restarts, cfg.workers, seed, newWorker, prog)
	if err != nil {
		return nil, err
	}
	// Detach the winner from its worker's buffers.
	out := *fit
	out.z = append([]uint64(nil), fit.z...)
	out.a = append([]float64(nil), fit.a...)
	out.objectives = objectives
	return &out, nil
}

// result turns a fit into a Result on the caller's X: Z as 0/1 entries, A = (Z'Z)⁻¹Z'X
// and the objective recomputed on X.
func (p *kfProblem) result(fit *kfFit) (*Result, error) {
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
	if p.x == p.orig {
		copy(A.RawMatrix().Data, fit.a)
	} else if err := aStep(A, Z, p.orig, nil); err != nil {
		return nil, fmt.Errorf("final A-step: %w", err)
	}
	obj := codesResidual(p.orig, fit.z, A.RawMatrix().Data, make([]float64, d))
	return &Result{
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

// kfWork is one worker's scratch for restarts of K-features; after newKFWork a restart
// allocates nothing.
type kfWork struct {
	p       *kfProblem
	kMax, k int // features requested; features now (fewer only after a drop)
	maxIter int
	walks   []*grayWalk // by k, for k ≤ maxExactK

	z     []uint64  // row codes
	aData []float64 // A, k×d row-major, capacity kMax×d
	rr    []float64 // squared residual of every row (initialisation and re-seeding)
	row   []float64 // d scratch
	aa    []float64 // kMax scratch: A_j·a for a new feature a

	// Matrix views of the buffers for every k ≤ kMax, built once so changing k is free.
	aView, zView, bView, gView []*mat.Dense
	zData, bData, gData        []float64
	asw                        []*aStepWork // by k, made on first use

	q, qg []float64 // quadTable for the exact Z-step
	bb    [2 * maxExactK]float64
	gz    []float64
	gram  []float64 // kMax×kMax scratch for dependentFeatures

	// trace, when set (tests), is told the objective after every half-step.
	trace func(iter int, afterZ, afterA float64)
}

func newKFWork(p *kfProblem, k int, walk *grayWalk, maxIter int) *kfWork {
	n, d := p.n, p.d
	w := &kfWork{
		p: p, kMax: k, maxIter: maxIter,
		walks: make([]*grayWalk, min(k, maxExactK)+1),
		z:     make([]uint64, n),
		aData: make([]float64, k*d),
		rr:    make([]float64, n),
		row:   make([]float64, d),
		aa:    make([]float64, k),
		zData: make([]float64, n*k),
		bData: make([]float64, n*k),
		gData: make([]float64, k*k),
		aView: make([]*mat.Dense, k+1),
		zView: make([]*mat.Dense, k+1),
		bView: make([]*mat.Dense, k+1),
		gView: make([]*mat.Dense, k+1),
		asw:   make([]*aStepWork, k+1),
		gz:    make([]float64, k),
		gram:  make([]float64, k*k),
	}
	if k <= maxExactK {
		w.walks[k] = walk
		w.q = make([]float64, 1<<k)
		w.qg = make([]float64, 1<<k)
	}
	for j := 1; j <= k; j++ {
		w.aView[j] = mat.NewDense(j, d, w.aData[:j*d])
		w.zView[j] = mat.NewDense(n, j, w.zData[:n*j])
		w.bView[j] = mat.NewDense(n, j, w.bData[:n*j])
		w.gView[j] = mat.NewDense(j, j, w.gData[:j*j])
	}
	return w
}

// run performs one restart and returns its objective and number of Z-steps.
func (w *kfWork) run(ctx context.Context, rng *rand.Rand) (obj float64, iters int, err error) {
	w.initialise(rng)
	if w.trace != nil {
		w.trace(0, math.NaN(), w.objective())
	}
	fresh := false // A is the least-squares A of the current Z
	for iters < w.maxIter {
		if err := ctx.Err(); err != nil {
			return 0, iters, err
		}
		changed := w.zStep()
		iters++
		if !changed && fresh {
			break // Z is optimal for A and A for Z: a fixed point
		}
		var afterZ float64
		if w.trace != nil {
			afterZ = w.objective()
		}
		if err := w.aStep(); err != nil {
			return 0, iters, err
		}
		fresh = true
		if w.trace != nil {
			w.trace(iters, afterZ, w.objective())
		}
	}
	if !fresh { // only when maxIter stops a run after its first Z-step
		if err := w.aStep(); err != nil {
			return 0, iters, err
		}
	}
	return w.objective(), iters, nil
}

// objective returns ‖X − ZA‖²_F for the current Z and A.
func (w *kfWork) objective() float64 {
	return codesResidual(w.p.x, w.z, w.aData[:w.k*w.p.d], w.row)
}

// feature returns row j of A.
func (w *kfWork) feature(j int) []float64 { return w.aData[j*w.p.d : (j+1)*w.p.d] }

// initialise sets Z and A by the paper's §5 K-means++-like seeding.
var kfInitMode = 0

func (w *kfWork) initialise(rng *rand.Rand) {
	p := w.p
	mode := kfInitMode
	if mode == 2 {
		mode = int(rng.Uint64() & 1)
	}
	if mode == 0 {
		w.k = 1
		copy(w.feature(0), p.mean)
		for i := range w.z {
			w.z[i] = 1
		}
	} else {
		w.k = 0
		clear(w.z)
	}
	w.residualNorms()
	for w.k < w.kMax {
		w.addFeature(w.sampleRow(rng))
	}
}

// sampleRow draws a row with probability proportional to its squared residual (uniformly
// when every residual is zero).
func (w *kfWork) sampleRow(rng *rand.Rand) int {
	var total float64
	for _, v := range w.rr {
		total += v
	}
	if !(total > 0) {
		return rng.IntN(w.p.n)
	}
	u := rng.Float64() * total
	last := 0
	for i, v := range w.rr {
		if v <= 0 {
			continue
		}
		last = i
		if u < v {
			return i
		}
		u -= v
	}
	return last // rounding left u ≥ 0 after the last positive weight
}

// residualNorms sets rr[n] = ‖x_n − z_n A‖².
func (w *kfWork) residualNorms() {
	d := w.p.d
	for i, code := range w.z {
		copy(w.row, w.p.x.RawRowView(i))
		for r := code; r != 0; r &= r - 1 {
			floats.Sub(w.row, w.aData[bits.TrailingZeros64(r)*d:][:d])
		}
		w.rr[i] = floats.Dot(w.row, w.row)
	}
}

// addFeature appends the feature a = residual of row n and gives it to every row whose
// residual it lowers, ‖r_m − a‖² < ‖r_m‖² ⇔ ‖a‖² − 2r_m·a < 0 (paper §5); rr is kept up
// to date. r_m·a = x_m·a − Σ_{j∈z_m} A_j·a, so no residual matrix is needed.
func (w *kfWork) addFeature(n int) {
	p := w.p
	f := w.k
	a := w.feature(f)
	copy(a, p.x.RawRowView(n))
	for r := w.z[n]; r != 0; r &= r - 1 {
		floats.Sub(a, w.feature(bits.TrailingZeros64(r)))
	}
	for j := 0; j < f; j++ {
		w.aa[j] = floats.Dot(w.feature(j), a)
	}
	asq := floats.Dot(a, a)
	bit := uint64(1) << f
	for m, code := range w.z {
		ra := floats.Dot(p.x.RawRowView(m), a)
		for r := code; r != 0; r &= r - 1 {
			ra -= w.aa[bits.TrailingZeros64(r)]
		}
		if delta := asq - 2*ra; delta < 0 {
			w.z[m] = code | bit
			w.rr[m] = max(w.rr[m]+delta, 0)
		}
	}
	w.k = f + 1
}

// zStep sets every row's code to the best for the current A (exactly for K ≤ 16) and
// reports whether any code changed.
func (w *kfWork) zStep() bool {
	p, k := w.p, w.k
	A := w.aView[k]
	B, G := w.bView[k], w.gView[k]
	B.Mul(p.x, A.T()) // b_n = A x_n for every row
	G.Mul(A, A.T())
	g := w.gData[:k*k]
	var gmax float64
	for j := 0; j < k; j++ {
		gmax = max(gmax, g[j*k+j])
	}
	var walk *grayWalk
	if k <= maxExactK {
		walk = w.walk(k)
		quadTable(w.q, w.qg, g, k)
	}
	changed := false
	for n, cur := range w.z {
		b := w.bData[n*k : n*k+k]
		tol := zTolRel * (p.xsq[n] + gmax)
		var code uint64
		if walk != nil {
			code, _ = zStepExact(b, w.q, w.qg[:1<<k], walk, &w.bb, cur, tol)
		} else {
			code, _ = zStepFlips(b, g, k, cur, w.gz, tol)
		}
		if code != cur {
			w.z[n] = code
			changed = true
		}
	}
	return changed
}

// walk returns the Gray-code walk for k bits, building it on first use (k < kMax happens
// only after a feature was dropped).
func (w *kfWork) walk(k int) *grayWalk {
	if w.walks[k] == nil {
		w.walks[k] = newGrayWalk(k)
	}
	return w.walks[k]
}

// aStep sets A = (Z'Z)⁻¹Z'X (MAD-Bayes Alg. 4, step 2). When Z'Z is singular the later of
// the dependent features is re-seeded from the row with the largest residual under the
// remaining features (as in the initialisation); after kfReseedRounds rounds, or when no
// row has a residual left, it is dropped instead. Neither raises the objective: the
// remaining features span the same fits, and a re-seeded feature is only given to rows it
// improves.
func (w *kfWork) aStep() error {
	for round := 0; ; round++ {
		err := w.solveA()
		if err == nil {
			return nil
		}
		var cond mat.Condition
		ill := errors.As(err, &cond)
		if !ill && !errors.Is(err, errSingular) {
			return err
		}
		dep := w.dependentFeatures()
		if dep == 0 {
			if ill {
				return nil // badly conditioned but of full rank: A is the solution found
			}
			dep = 1 << (w.k - 1) // cannot happen; the last feature guarantees progress
		}
		dropped := bits.OnesCount64(dep)
		w.dropFeatures(dep)
		if w.k == 0 {
			w.resetToMean()
			continue
		}
		if round >= kfReseedRounds {
			continue
		}
		if err := w.solveA(); err != nil {
			continue // still degenerate: detect again
		}
		w.residualNorms()
		for i := 0; i < dropped; i++ {
			n := floats.MaxIdx(w.rr)
			if w.rr[n] <= w.p.tiny {
				break
			}
			w.addFeature(n)
		}
	}
}

// solveA fills the 0/1 matrix Z from the codes and calls the shared aStep.
func (w *kfWork) solveA() error {
	k := w.k
	for i := range w.zData[:w.p.n*k] {
		w.zData[i] = 0
	}
	for i, code := range w.z {
		row := w.zData[i*k : i*k+k]
		for r := code; r != 0; r &= r - 1 {
			row[bits.TrailingZeros64(r)] = 1
		}
	}
	if w.asw[k] == nil {
		w.asw[k] = newAStepWork(k, w.p.d)
	}
	return aStep(w.aView[k], w.zView[k], w.p.x, w.asw[k])
}

// dependentFeatures returns the features whose column of Z is a linear combination of the
// columns before it (an empty column included), found by a Cholesky factorisation of Z'Z
// that skips such columns. Z'Z has integer entries, so a dependent column leaves a pivot at
// rounding level and an independent one a pivot of order one.
func (w *kfWork) dependentFeatures() uint64 {
	k := w.k
	m := w.gram[:k*k]
	clear(m)
	for _, code := range w.z {
		for r := code; r != 0; r &= r - 1 {
			i := bits.TrailingZeros64(r)
			for t := r; t != 0; t &= t - 1 {
				m[i*k+bits.TrailingZeros64(t)]++ // upper triangle, j ≥ i
			}
		}
	}
	// Overwrite the lower triangle with the factor L of Z'Z = LLᵀ, row by row.
	var dep uint64
	for j := 0; j < k; j++ {
		for i := 0; i < j; i++ {
			if dep&(1<<i) != 0 {
				m[j*k+i] = 0
				continue
			}
			s := m[i*k+j] // (Z'Z)_ij from the upper triangle
			for t := 0; t < i; t++ {
				s -= m[j*k+t] * m[i*k+t]
			}
			m[j*k+i] = s / m[i*k+i]
		}
		diag := m[j*k+j]
		s := diag
		for t := 0; t < j; t++ {
			s -= m[j*k+t] * m[j*k+t]
		}
		if s <= 1e-9*diag || diag == 0 {
			dep |= 1 << j
			m[j*k+j] = 1
			continue
		}
		m[j*k+j] = math.Sqrt(s)
	}
	return dep
}

// dropFeatures removes the features in the set dep from Z and A, keeping the order of
// the others.
func (w *kfWork) dropFeatures(dep uint64) {
	d := w.p.d
	for i, code := range w.z {
		w.z[i] = compressCode(code, dep)
	}
	out := 0
	for j := 0; j < w.k; j++ {
		if dep&(1<<j) != 0 {
			continue
		}
		if out != j {
			copy(w.feature(out), w.aData[j*d:j*d+d])
		}
		out++
	}
	w.k = out
}

// compressCode deletes the bits in dep from code, shifting the higher bits down.
func compressCode(code, dep uint64) uint64 {
	var out uint64
	o := 0
	for j := 0; j < 64; j++ {
		if dep&(1<<j) != 0 {
			continue
		}
		if code&(1<<j) != 0 {
			out |= 1 << o
		}
		o++
	}
	return out
}

// resetToMean leaves the single base feature, the mean row, owned by every row; Z'Z = N
// cannot be singular.
func (w *kfWork) resetToMean() {
	w.k = 1
	copy(w.feature(0), w.p.mean)
	for i := range w.z {
		w.z[i] = 1
	}
}
