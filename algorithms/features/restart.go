package features

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/floats"

	"featurelab/algorithms/internal/chol"
	ob "featurelab/internal/openblas"
)

// kfWork is one worker's state for restarts of K-features; after newKFWork a restart
// allocates nothing.
//
// Besides Z (row codes) and A it keeps W = Z'X and, with the Gram matrix S = XXᵀ,
// P = SZ, both updated when a row's code changes (D and N additions per changed bit). The
// A-step is then A = (Z'Z)⁻¹W and the Z-step's b_n = Ax_n comes from Bᵀ = (Z'Z)⁻¹Pᵀ,
// since XAᵀ = XXᵀZ(Z'Z)⁻¹: an iteration costs O(K²(N+D)) plus the rows that changed,
// instead of O(NKD).
type kfWork struct {
	p       *kfProblem
	kMax, k int // features requested; features now (fewer only after a drop)
	maxIter int
	walks   []*grayWalk // by k, for k ≤ kfExactK

	z []uint64 // row codes: bit j set when the row owns feature j
	// codes and tol are the exact Z-step's scratch: each row's new code and tolerance.
	codes []uint64
	tol   []float64
	a     []float64 // A, k×d row-major
	w     []float64 // W = Z'X, k×d
	pt    []float64 // Pᵀ = (SZ)ᵀ, k×n (with the Gram matrix only)
	bt    []float64 // Bᵀ = AXᵀ, k×n: column n is b_n = Ax_n
	g     []float64 // G = AAᵀ, k×k
	m     []float64 // Z'Z and its Cholesky factor, k×k
	rr    []float64 // squared residual of every row (initialisation and re-seeding)
	// starts are where the first restarts begin instead of a random initialisation
	// (startFrom).
	starts []kfStart

	row    []float64 // d scratch
	aa     []float64 // kMax scratch: A_j·a for a new feature a
	q      []float64 // quadTable for the exact Z-step
	qg     []float64
	blocks *zBlocks // the block Z-step above kfExactK features

	// trace, when set (tests), is told ‖X − ZA‖²_F after every half-step.
	trace func(iter int, afterZ, afterA float64)
}

func newKFWork(p *kfProblem, k int, walk *grayWalk, maxIter int) *kfWork {
	n, d := p.n, p.d
	w := &kfWork{
		p: p, kMax: k, maxIter: maxIter,
		walks: make([]*grayWalk, min(k, kfExactK)+1),
		z:     make([]uint64, n),
		codes: make([]uint64, n),
		tol:   make([]float64, n),
		a:     make([]float64, k*d),
		w:     make([]float64, k*d),
		bt:    make([]float64, k*n),
		g:     make([]float64, k*k),
		m:     make([]float64, k*k),
		rr:    make([]float64, n),
		row:   make([]float64, d),
		aa:    make([]float64, k),
	}
	if p.gram != nil {
		w.pt = make([]float64, k*n)
	}
	if k <= kfExactK {
		w.walks[k] = walk
		w.q = make([]float64, 1<<k)
		w.qg = make([]float64, 1<<k)
	}
	return w
}

// feature returns row j of A.
func (w *kfWork) feature(j int) []float64 { return w.a[j*w.p.d : (j+1)*w.p.d] }

// run performs restart r and returns its objective and number of Z-steps. Even restarts
// start from the paper's mean base feature, odd ones draw every feature (see initialise).
func (w *kfWork) run(ctx context.Context, r int, rng *rand.Rand) (obj float64, iters int, err error) {
	switch {
	case r < len(w.starts) && w.starts[r].a != nil:
		w.startFromFeatures(w.starts[r])
	case r >= len(w.starts) || !w.startFrom(w.starts[r]):
		w.initialise(rng, r%2 == 0)
	}
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
		w.aStep()
		fresh = true
		if w.trace != nil {
			w.trace(iters, afterZ, w.objective())
		}
	}
	if !fresh { // defensive: every iteration that does not stop ends with an A-step
		w.aStep()
	}
	// At the least-squares A, ‖X − ZA‖² = ‖X‖² − ⟨A, Z'X⟩ (because Z'ZA = Z'X). Rounding
	// can take an exact fit a hair below zero.
	obj = w.p.total
	d := w.p.d
	for j := 0; j < w.k; j++ {
		obj -= floats.Dot(w.feature(j), w.w[j*d:j*d+d])
	}
	return max(obj, 0), iters, nil
}

// kfStart is a warm start for a restart: row codes over k features, k ≤ the restart's K.
type kfStart struct {
	k int
	z []uint64
	a []float64 // instead of z: features (k × d), each row given its best code for them
}

// startFrom begins a restart from st: its codes, then, while it has fewer features than
// K, the residual of the row worst fitted so far as a new feature, given to every row it
// improves (as in initialise). It reports false when st's Z'Z is singular; the restart
// then starts afresh.
//
// Stepwise's restarts at each K are otherwise independent of the K before and after, so
// a K's best fit can come out worse than a neighbour's fit with a feature added or
// dropped. The λ² path reads K off the differences between neighbouring K's objectives,
// so one poorly fitted K moves the answer: on the real tabletop photos a poorly fitted
// K = 5 gives the widest interval to K = 6 (docs/DESIGN.md, "Measurements behind the code").
func (w *kfWork) startFrom(st kfStart) bool {
	w.k = st.k
	copy(w.z, st.z)
	w.rebuild()
	if !w.solve() {
		return false
	}
	for w.k < w.kMax {
		w.residualNorms()
		i := floats.MaxIdx(w.rr)
		if w.rr[i] <= w.p.tiny {
			break // every row is fitted: the A-step drops what cannot be seeded
		}
		w.addFeature(i)
	}
	w.rebuild()
	return true
}

// objective returns ‖X − ZA‖²_F for the current Z and A, computed in full (tests).
func (w *kfWork) objective() float64 {
	return codesResidual(w.p.x, w.z, w.a[:w.k*w.p.d], w.row)
}

// initialise sets Z, A and Bᵀ by the K-means++-like seeding of the paper's §5 — feature 1
// is the mean row, owned by every row; each further feature is the residual of a row
// drawn with probability ∝ its squared residual, owned by the rows it improves — then W
// and P. Without meanBase, feature 1 too is drawn that way, from the residuals of no
// feature (‖x_n‖²), as the reference code (bp_means_plus_plus.m) does.
//
// The mean base suits data made of a shared background plus features (the tabletop), but
// it is a poor start when no feature is shared by all rows: on the dice pictures (black
// background) or on sums of random features, 50 mean-based restarts all stop in local
// minima that drawn starts avoid. And on centred data, such as PCA scores, the mean is the
// zero vector: a base equal to it carries nothing and at K = 1 every restart would stop
// where it started. So run alternates (see kfWork.run), and centred data never use it.
func (w *kfWork) initialise(rng *rand.Rand, meanBase bool) {
	p := w.p
	if !meanBase || p.centred {
		w.k = 0
		clear(w.z)
		copy(w.rr, p.xsq)
	} else {
		w.k = 1
		copy(w.feature(0), p.mean)
		copy(w.bt[:p.n], p.xmean)
		mm := floats.Dot(p.mean, p.mean)
		for i := range w.z {
			w.z[i] = 1
			w.rr[i] = max(p.xsq[i]-2*p.xmean[i]+mm, 0)
		}
	}
	for w.k < w.kMax {
		w.addFeature(w.sampleRow(rng))
	}
	w.rebuild()
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
	return bpSample(w.rr, total, rng)
}

// addFeature appends the feature a = x_n − z_n A, the residual of row n, and gives it to
// every row whose residual it lowers: ‖r_m − a‖² < ‖r_m‖² ⇔ ‖a‖² − 2r_m·a < 0 (paper §5).
// It needs Bᵀ for the current A, extends it by the new feature, and keeps rr up to date.
// r_m·a = x_m·a − Σ_{j∈z_m} A_j·a, and with the Gram matrix x_m·a = S_mn − Σ_{j∈z_n} b_mj,
// so no residual matrix is formed.
func (w *kfWork) addFeature(n int) {
	p := w.p
	f, nr := w.k, p.n
	a := w.feature(f)
	copy(a, p.x.RawRowView(n))
	zn := w.z[n]
	for r := zn; r != 0; r &= r - 1 {
		floats.Sub(a, w.feature(bits.TrailingZeros64(r)))
	}
	for j := 0; j < f; j++ {
		w.aa[j] = floats.Dot(w.feature(j), a)
	}
	asq := floats.Dot(a, a)
	xa := w.bt[f*nr : f*nr+nr] // x_m·a, the new row of Bᵀ
	if p.gram != nil {
		copy(xa, p.gram[n*nr:n*nr+nr])
		for r := zn; r != 0; r &= r - 1 {
			floats.Sub(xa, w.bt[bits.TrailingZeros64(r)*nr:][:nr])
		}
	} else {
		for m := range xa {
			xa[m] = floats.Dot(p.x.RawRowView(m), a)
		}
	}
	bit := uint64(1) << f
	for m, code := range w.z {
		ra := xa[m]
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

// rebuild recomputes W = Z'X and P = SZ from Z.
func (w *kfWork) rebuild() {
	p := w.p
	k, n, d := w.k, p.n, p.d
	clear(w.w[:k*d])
	if w.pt != nil {
		clear(w.pt[:k*n])
	}
	for i, code := range w.z {
		x := p.x.RawRowView(i)
		for r := code; r != 0; r &= r - 1 {
			j := bits.TrailingZeros64(r)
			floats.Add(w.w[j*d:j*d+d], x)
			if w.pt != nil {
				floats.Add(w.pt[j*n:j*n+n], p.gram[i*n:i*n+n])
			}
		}
	}
}

// move changes row i's code from old to code, updating W and P by ±x_i and ±S_i for each
// bit that changed.
func (w *kfWork) move(i int, old, code uint64) {
	p := w.p
	n, d := p.n, p.d
	x := p.x.RawRowView(i)
	for r := old ^ code; r != 0; r &= r - 1 {
		j := bits.TrailingZeros64(r)
		if code&(1<<j) != 0 {
			floats.Add(w.w[j*d:j*d+d], x)
			if w.pt != nil {
				floats.Add(w.pt[j*n:j*n+n], p.gram[i*n:i*n+n])
			}
		} else {
			floats.Sub(w.w[j*d:j*d+d], x)
			if w.pt != nil {
				floats.Sub(w.pt[j*n:j*n+n], p.gram[i*n:i*n+n])
			}
		}
	}
	w.z[i] = code
}

// zStep sets every row's code to the best for the current A (MAD-Bayes Alg. 4, step 1;
// exactly for K ≤ kfExactK, block by block above) and reports whether any code changed.
func (w *kfWork) zStep() bool {
	p, k, n := w.p, w.k, w.p.n
	g := w.g[:k*k]
	var gmax float64
	for i := 0; i < k; i++ {
		ai := w.feature(i)
		for j := 0; j < i; j++ {
			v := floats.Dot(ai, w.feature(j))
			g[i*k+j], g[j*k+i] = v, v
		}
		g[i*k+i] = floats.Dot(ai, ai)
		gmax = max(gmax, g[i*k+i])
	}
	var walk *grayWalk
	var blocks *zBlocks
	if k <= kfExactK {
		walk = w.walk(k)
		quadTable(w.q, w.qg[:1<<k], g, k)
	} else {
		if w.blocks == nil || w.blocks.k != k {
			w.blocks = newZBlocks(k) // again only after a feature was dropped
		}
		blocks = w.blocks
		blocks.setGram(g)
	}
	// Every row's code depends only on A (b, G and the tables), not on the other rows'
	// moves: all rows are stepped at once, then moved in order.
	for i := range w.tol {
		w.tol[i] = zTolRel * (p.xsq[i] + gmax)
	}
	if walk != nil {
		zStepExactRows(w.bt[:k*n], w.q, w.qg[:1<<k], walk, w.z, w.tol, w.codes)
	} else {
		blocks.stepRows(w.bt[:k*n], g, w.z, w.tol, w.codes)
	}
	changed := false
	for i, code := range w.codes {
		if cur := w.z[i]; code != cur {
			w.move(i, cur, code)
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

// solve sets A = (Z'Z)⁻¹W (MAD-Bayes Alg. 4, step 2) and Bᵀ = AXᵀ, and reports false,
// changing nothing, when Z'Z is singular.
func (w *kfWork) solve() bool {
	p := w.p
	k, n, d := w.k, p.n, p.d
	m := w.codesGram()
	if !chol.Factor(m, k, k, aStepPivotTol) {
		return false
	}
	copy(w.a[:k*d], w.w[:k*d])
	chol.Solve(m, k, k, w.a, d, d)
	if w.pt != nil {
		copy(w.bt[:k*n], w.pt[:k*n])
		chol.Solve(m, k, k, w.bt, n, n)
		return true
	}
	w.projectRows()
	return true
}

// projectRows sets Bᵀ = A·Xᵀ for the current A: one single-threaded OpenBLAS product on
// this worker.
func (w *kfWork) projectRows() {
	p := w.p
	k, n, d := w.k, p.n, p.d
	x := p.x.RawMatrix()
	ob.BLAS.Dgemm(blas.NoTrans, blas.Trans, k, n, d, 1, w.a[:k*d], d, x.Data, x.Stride, 0, w.bt[:k*n], n)
}

// codesGram sets w.m to the lower triangle of Z'Z (k × k, row-major), counted from the
// row codes, and returns it.
func (w *kfWork) codesGram() []float64 {
	k := w.k
	m := w.m[:k*k]
	clear(m)
	for _, code := range w.z {
		for r := code; r != 0; r &= r - 1 {
			i := bits.TrailingZeros64(r)
			for t := r; t != 0; t &= t - 1 {
				m[bits.TrailingZeros64(t)*k+i]++ // lower triangle
			}
		}
	}
	return m
}

// aStep sets A to the least-squares features of Z. When Z'Z is singular — a feature owned
// by no row, or a column of Z that is a combination of earlier ones — the later such
// features are removed and re-seeded, each from the row with the largest residual under
// the remaining features (as in the initialisation); after kfReseedRounds rounds, or when
// no row has a residual left, they stay removed. Neither raises the objective: the
// remaining features span the same fits, and a re-seeded feature is only given to rows it
// improves. At least one feature always remains.
func (w *kfWork) aStep() {
	for round := 0; ; round++ {
		if w.solve() {
			return
		}
		dep := w.dependentFeatures()
		if dep == 0 {
			// dependentFeatures repeats chol.Factor's arithmetic, so this cannot happen;
			// removing the last feature still guarantees progress if it does.
			dep = 1 << (w.k - 1)
		}
		removed := bits.OnesCount64(dep)
		for i, code := range w.z {
			w.z[i] = compressCode(code, dep)
		}
		w.k -= removed
		if w.k == 0 {
			w.resetToMean()
		}
		w.rebuild()
		if round >= kfReseedRounds || !w.solve() {
			continue
		}
		w.residualNorms()
		for range removed {
			i := floats.MaxIdx(w.rr)
			if w.rr[i] <= w.p.tiny {
				break
			}
			w.addFeature(i)
		}
		w.rebuild()
	}
}

// residualNorms sets rr[n] = ‖x_n − z_n A‖².
func (w *kfWork) residualNorms() {
	d := w.p.d
	for i, code := range w.z {
		copy(w.row, w.p.x.RawRowView(i))
		for r := code; r != 0; r &= r - 1 {
			floats.Sub(w.row, w.a[bits.TrailingZeros64(r)*d:][:d])
		}
		w.rr[i] = floats.Dot(w.row, w.row)
	}
}

// dependentFeatures returns the features whose column of Z is a linear combination of the
// columns before it (an empty column included): the pivots chol.Factor rejects, found
// by the same factorisation of Z'Z but skipping such columns instead of stopping.
func (w *kfWork) dependentFeatures() uint64 {
	return chol.DependentColumns(w.codesGram(), w.k, w.k, aStepPivotTol)
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
