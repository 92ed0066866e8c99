package features

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// cbpLevTol is how close to 1 the leverage h_i = z_iᵀ(Z'Z)⁻¹z_i of a row may come before
// the row counts as fitted exactly, i.e. as holding a feature that is redundant without it.
const cbpLevTol = 1e-8

// cbpExactMaxK is the largest K for which collapsed BP-means chooses a row's code exactly
// over all 2^K codes (O(1) per code, see bestCodeExact); above it, single flips until
// none helps (O(K) per flip tried).
const cbpExactMaxK = 10

// cbpMaxPasses caps the flip passes over one row's code when K > cbpExactMaxK.
const cbpMaxPasses = 50

// CollapsedBPMeans learns a binary feature allocation of the rows of X with collapsed
// BP-means (MAD-Bayes Alg. 3), minimising the collapsed objective
//
//	tr(X'(I − Z(Z'Z)⁻¹Z')X) + λ²K   (eq. 10)
//
// over K and Z: the features are integrated out, i.e. always A = (Z'Z)⁻¹Z'X. λ² =
// opt.Lambda2 must be > 0, or 0 to choose λ² and K from its λ² path (penalisedPath).
//
// Each of opt.Restarts restarts (default 100) starts from BP-means++ (see plusPlus) and
// sweeps over the rows in a random order of its own. For row i it takes the row out of the least-squares fit, chooses the
// code z_i minimising the objective (exactly over all 2^K codes while K ≤ 10, by single
// flips above), puts the row back, and adds a feature owned by row i alone when that
// lowers the objective; a feature that is redundant without row i is deleted first. All of
// this works on (Z'Z)⁻¹, A and AAᵀ kept up to date by rank-one (Sherman–Morrison) updates,
// so a row costs O(K² + KD) plus O(1) per code tried, never a fresh inverse. The kept
// quantities are recomputed from scratch after every sweep so rounding cannot build up. A
// restart stops when a sweep no longer lowers the objective, or after opt.MaxIter sweeps.
//
// Result.A = (Z'Z)⁻¹Z'X and Result.Objective is the trace term; as with BPMeans the result
// keeps at least one feature.
func CollapsedBPMeans(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	return runPenalised(ctx, "collapsed", X, opt, func(x []float64, n, d int) bpRunner {
		return newCBPWorker(x, n, d)
	})
}

// cbpWorker is one worker's scratch for collapsed BP-means. Besides Z (in st) it keeps,
// for the current Z, the least-squares features A = (Z'Z)⁻¹Z'X (in st.a), M = (Z'Z)⁻¹,
// H = AAᵀ and the RSS. M and H have stride kc = st.kcap.
type cbpWorker struct {
	st             *bpState
	order          []int
	kc             int
	m, h, work     []float64 // kc×kc
	w, ar, c, p    []float64 // kc
	au, hz, mz     []float64 // kc
	code           []uint8   // kc: the code being tried
	tab            []float64 // tables of bestCodeExact
	u              []float64 // D
	recomputeEvery int       // sweeps between full recomputes
	exactMaxK      int
}

func (w *cbpWorker) state() *bpState { return w.st }

func newCBPWorker(x []float64, n, d int) *cbpWorker {
	return &cbpWorker{st: newBPState(x, n, d), order: make([]int, n), u: make([]float64, d),
		recomputeEvery: 1, exactMaxK: cbpExactMaxK, tab: make([]float64, 4<<((cbpExactMaxK+1)/2))}
}

// ensure makes room for kmax features. When st's capacity grows (by doubling) it moves M
// and H to the new stride, so they stay current, and memory stays O(N·K + K²).
func (w *cbpWorker) ensure(kmax int) {
	w.st.reserve(kmax)
	if w.kc == w.st.kcap {
		return
	}
	// After BP-means++ (run) st.k may exceed the old stride; M and H are recomputed then.
	kc, old, k := w.st.kcap, w.kc, min(w.st.k, w.kc)
	m, h := make([]float64, kc*kc), make([]float64, kc*kc)
	for a := 0; a < k; a++ {
		copy(m[a*kc:a*kc+k], w.m[a*old:a*old+k])
		copy(h[a*kc:a*kc+k], w.h[a*old:a*old+k])
	}
	w.kc, w.m, w.h = kc, m, h
	w.work = make([]float64, kc*kc)
	w.w = make([]float64, kc)
	w.ar = make([]float64, kc)
	w.c = make([]float64, kc)
	w.p = make([]float64, kc)
	w.au = make([]float64, kc)
	w.hz = make([]float64, kc)
	w.mz = make([]float64, kc)
	w.code = make([]uint8, kc)
}

// recompute sets A, the RSS, M and H from Z afresh, removing redundant features first
// (see solveA). It returns the number of features removed.
func (w *cbpWorker) recompute() int {
	st := w.st
	removed := st.solveA()
	k, kc, d := st.k, w.kc, st.d
	bpCholInverse(w.m, st.chol, k, kc, w.work)
	for a := 0; a < k; a++ {
		fa := st.a[a*d : (a+1)*d]
		for b := 0; b <= a; b++ {
			v := floats.Dot(fa, st.a[b*d:(b+1)*d])
			w.h[a*kc+b] = v
			w.h[b*kc+a] = v
		}
	}
	return removed
}

// run does one restart and returns the number of sweeps; trace is as for bpWorker.run.
func (w *cbpWorker) run(ctx context.Context, lambda2 float64, maxIter int, rng *rand.Rand, trace *[]float64) (int, error) {
	st := w.st
	for i := range w.order {
		w.order[i] = i
	}
	rng.Shuffle(len(w.order), func(i, j int) { w.order[i], w.order[j] = w.order[j], w.order[i] })
	st.plusPlus(lambda2, rng.Uint64()&1 == 0, rng)
	w.ensure(st.k)
	w.recompute()
	obj := bpObjective(st.rss, lambda2, st.k)
	if trace != nil {
		*trace = append(*trace, obj)
	}
	iters := 0
	for iters < maxIter {
		if err := ctx.Err(); err != nil {
			return iters, err
		}
		changes := w.sweep(lambda2)
		iters++
		removed := 0
		if iters%w.recomputeEvery == 0 {
			removed = w.recompute()
		}
		next := bpObjective(st.rss, lambda2, st.k)
		if trace != nil {
			*trace = append(*trace, next)
		}
		if changes == 0 && removed == 0 || !(next < obj-bpFlipTol*obj) {
			break
		}
		obj = next
	}
	if iters%w.recomputeEvery != 0 {
		w.recompute()
	}
	return iters, nil
}

// sweep is one pass of MAD-Bayes Alg. 3 over the rows; it returns the number of changes.
func (w *cbpWorker) sweep(lambda2 float64) int {
	changes := 0
	for _, i := range w.order {
		changes += w.row(i, lambda2)
	}
	return changes
}

// leverage sets w.w = Mz_i and returns h_i = z_iᵀMz_i, row i's leverage.
func (w *cbpWorker) leverage(i int) float64 {
	st := w.st
	k, kc := st.k, w.kc
	zi := st.zrow(i)
	v := w.w[:k]
	clear(v)
	for j, on := range zi {
		if on != 0 {
			mj := w.m[j*kc : j*kc+k] // column j of the symmetric M
			for a := range v {
				v[a] += mj[a]
			}
		}
	}
	var h float64
	for j, on := range zi {
		if on != 0 {
			h += v[j]
		}
	}
	return h
}

// row re-chooses row i's code (MAD-Bayes Alg. 3, step 1) and returns the number of
// changes. With Z₋ the allocation without row i, the least-squares fit of the other rows
// is A₀ = (Z₋'Z₋)⁻¹Z₋'X₋ with RSS₀, and putting row i back with code z raises the RSS by
//
//	‖x_i − A₀ᵀz‖² / (1 + zᵀ(Z₋'Z₋)⁻¹z),
//
// the recursive least-squares identity. So the best code minimises that ratio, and a
// feature owned by row i alone (which fits row i exactly) pays off when the ratio exceeds
// λ². Taking the row out is the Sherman–Morrison downdate of M = (Z'Z)⁻¹ by z_i; it
// needs leverage h_i < 1, and h_i = 1 means some feature is redundant once row i is gone
// (for instance one that row i owns alone): that feature is deleted first.
func (w *cbpWorker) row(i int, lambda2 float64) int {
	st := w.st
	d := st.d
	x := st.xrow(i)
	changes := 0
	lev := w.leverage(i)
	caseB, soleDropped := false, false
	if 1-lev <= cbpLevTol {
		// Z₋ loses rank: Z₋(Mz_i) = 0, so the features with the largest weight in Mz_i
		// are the redundant ones; delete one.
		j, best := 0, -1.0
		for a, v := range w.w[:st.k] {
			if math.Abs(v) > best {
				j, best = a, math.Abs(v)
			}
		}
		soleDropped = st.owners[j] == 1
		w.dropFeature(j)
		caseB = true
		lev = w.leverage(i)
		if 1-lev <= cbpLevTol {
			// Only rounding can get here; rebuild everything from Z and try again.
			w.recompute()
			if lev = w.leverage(i); 1-lev <= cbpLevTol {
				return 1
			}
		}
	}
	k, kc := st.k, w.kc
	zi := st.zrow(i)

	// Downdate: take row i out. r = x_i − Aᵀz_i is its residual in the full fit.
	r := w.u
	copy(r, x)
	for j, on := range zi {
		if on != 0 {
			floats.Sub(r, st.a[j*d:(j+1)*d])
		}
	}
	rr := floats.Dot(r, r)
	ar := w.ar[:k]
	for a := range ar {
		ar[a] = floats.Dot(st.a[a*d:(a+1)*d], r)
	}
	f := 1 / (1 - lev)
	wv := w.w[:k]
	for a := 0; a < k; a++ {
		ma := w.m[a*kc : a*kc+k]
		ha := w.h[a*kc : a*kc+k]
		fa := f * wv[a]
		for b := range ma {
			ma[b] += fa * wv[b]
			ha[b] += -fa*ar[b] - f*ar[a]*wv[b] + f*fa*rr*wv[b]
		}
		floats.AddScaled(st.a[a*d:(a+1)*d], -fa, r)
	}
	st.rss -= f * rr

	// Choose the code.
	c := w.c[:k]
	for a := range c {
		c[a] = floats.Dot(st.a[a*d:(a+1)*d], x)
	}
	xx := floats.Dot(x, x)
	code := w.code[:k]
	copy(code, zi)
	if k <= w.exactMaxK {
		w.bestCodeExact(code, xx)
	} else {
		w.bestCodeFlips(code, xx)
	}

	// Put row i back with that code: p = M₀z, q = zᵀp, u = x − A₀ᵀz, A₀u = c − H₀z.
	p := w.p[:k]
	clear(p)
	au := w.au[:k]
	copy(au, c)
	u := w.u
	copy(u, x)
	for j, on := range code {
		if on != 0 {
			mj := w.m[j*kc : j*kc+k]
			hj := w.h[j*kc : j*kc+k]
			for a := range p {
				p[a] += mj[a]
				au[a] -= hj[a]
			}
			floats.Sub(u, st.a[j*d:(j+1)*d])
		}
	}
	var q float64
	for j, on := range code {
		if on != 0 {
			q += p[j]
		}
	}
	uu := floats.Dot(u, u)
	for j, on := range code {
		if on != zi[j] {
			zi[j] = on
			if on != 0 {
				st.owners[j]++
			} else {
				st.owners[j]--
			}
			changes++
		}
	}
	add := k == 0 || uu/(1+q)-lambda2 > bpFlipTol*(xx+lambda2)
	if !add {
		g := 1 / (1 + q)
		for a := 0; a < k; a++ {
			ma := w.m[a*kc : a*kc+k]
			ha := w.h[a*kc : a*kc+k]
			ga := g * p[a]
			for b := range ma {
				ma[b] -= ga * p[b]
				ha[b] += ga*au[b] + g*au[a]*p[b] + g*ga*uu*p[b]
			}
			floats.AddScaled(st.a[a*d:(a+1)*d], ga, u)
		}
		st.rss += g * uu
	} else {
		// A feature owned by row i alone: row i is fitted exactly, the others keep A₀,
		// and by bordering M becomes [[M₀, −p], [−pᵀ, 1+q]].
		w.ensure(k + 1)
		kc := w.kc
		j := st.addFeature(u, i)
		for a := 0; a < k; a++ {
			w.m[a*kc+j], w.m[j*kc+a] = -p[a], -p[a]
			w.h[a*kc+j], w.h[j*kc+a] = au[a], au[a]
		}
		w.m[j*kc+j] = 1 + q
		w.h[j*kc+j] = uu
	}
	switch {
	case caseB && soleDropped && add:
		// Row i's own feature was dropped and added back: the same state, up to its order.
	case caseB || add:
		changes++
	}
	return changes
}

// bestCodeExact sets code to the code over the k features that minimises
// ‖x − A₀ᵀz‖²/(1 + zᵀM₀z), keeping the current one on ties. Writing z = (l, u) for its low
// L and high k−L bits, both quadratic forms split into a part of l alone, a part of u
// alone and a cross term l·v(u) with v(u) = H_LU u (or M_LU u). The parts of l are
// tabulated once, and for each u the cross terms of all l follow by adding one entry of
// v(u) to the table entry of l without its lowest bit — so every code costs O(1).
func (w *cbpWorker) bestCodeExact(code []uint8, xx float64) {
	k, kc := len(code), w.kc
	c := w.c[:k]
	var cur uint64
	for j, on := range code {
		if on != 0 {
			cur |= 1 << j
		}
	}
	curVal := w.codeValue(cur, xx)
	thr := curVal - bpFlipTol*(xx+curVal)
	best := cur

	L := (k + 1) / 2
	nl := 1 << L
	th, tm := w.tab[0:nl], w.tab[nl:2*nl] // lᵀH l − 2c·l and lᵀM l
	xh, xm := w.tab[2*nl:3*nl], w.tab[3*nl:4*nl]
	th[0], tm[0] = 0, 0
	for l := 1; l < nl; l++ {
		j := bits.TrailingZeros(uint(l))
		rest := l & (l - 1)
		hj, mj := w.h[j*kc:j*kc+k], w.m[j*kc:j*kc+k]
		sh, sm := hj[j]-2*c[j], mj[j]
		for r := rest; r != 0; r &= r - 1 {
			b := bits.TrailingZeros(uint(r))
			sh += 2 * hj[b]
			sm += 2 * mj[b]
		}
		th[l], tm[l] = th[rest]+sh, tm[rest]+sm
	}
	vh, vm := w.hz[:L], w.mz[:L]
	for u := 0; u < 1<<(k-L); u++ {
		// The high part: sh = uᵀH u − 2c·u, sm = uᵀM u, and v = H_LU u, M_LU u.
		var sh, sm float64
		clear(vh)
		clear(vm)
		for r := u; r != 0; r &= r - 1 {
			j := L + bits.TrailingZeros(uint(r))
			hj, mj := w.h[j*kc:j*kc+k], w.m[j*kc:j*kc+k]
			sh += hj[j] - 2*c[j]
			sm += mj[j]
			for r2 := r & (r - 1); r2 != 0; r2 &= r2 - 1 {
				b := L + bits.TrailingZeros(uint(r2))
				sh += 2 * hj[b]
				sm += 2 * mj[b]
			}
			for a := range vh {
				vh[a] += hj[a]
				vm[a] += mj[a]
			}
		}
		xh[0], xm[0] = 0, 0
		for l := 1; l < nl; l++ {
			j := bits.TrailingZeros(uint(l))
			xh[l] = xh[l&(l-1)] + vh[j]
			xm[l] = xm[l&(l-1)] + vm[j]
		}
		e0, q0 := xx+sh, 1+sm
		for l := range xh {
			e := max(e0+th[l]+2*xh[l], 0)
			if v := e / (q0 + tm[l] + 2*xm[l]); v < thr {
				thr, best = v, uint64(l)|uint64(u)<<L
			}
		}
	}
	for j := range code {
		code[j] = uint8(best >> uint(j) & 1)
	}
}

// quadForms returns cᵀz, zᵀH₀z and zᵀM₀z for the code z, and sets hz = H₀z, mz = M₀z.
func (w *cbpWorker) quadForms(z uint64, hz, mz []float64) (lin, zhz, zmz float64) {
	k, kc := len(hz), w.kc
	clear(hz)
	clear(mz)
	for r := z; r != 0; r &= r - 1 {
		j := bits.TrailingZeros64(r)
		lin += w.c[j]
		hj := w.h[j*kc : j*kc+k]
		mj := w.m[j*kc : j*kc+k]
		for a := range hz {
			hz[a] += hj[a]
			mz[a] += mj[a]
		}
	}
	for r := z; r != 0; r &= r - 1 {
		j := bits.TrailingZeros64(r)
		zhz += hz[j]
		zmz += mz[j]
	}
	return lin, zhz, zmz
}

// codeValue returns ‖x − A₀ᵀz‖²/(1 + zᵀM₀z) for the code z, from its bits.
func (w *cbpWorker) codeValue(z uint64, xx float64) float64 {
	lin, zhz, zmz := w.quadForms(z, w.hz[:w.st.k], w.mz[:w.st.k])
	e := xx - 2*lin + zhz
	if e < 0 {
		e = 0
	}
	return e / (1 + zmz)
}

// bestCodeFlips improves code by single flips, in order, until none lowers
// ‖x − A₀ᵀz‖²/(1 + zᵀM₀z): the code step for K above cbpExactMaxK.
func (w *cbpWorker) bestCodeFlips(code []uint8, xx float64) {
	k, kc := len(code), w.kc
	c := w.c[:k]
	hz, mz := w.hz[:k], w.mz[:k]
	clear(hz)
	clear(mz)
	var lin, zhz, zmz float64
	for j, on := range code {
		if on != 0 {
			lin += c[j]
			hj := w.h[j*kc : j*kc+k]
			mj := w.m[j*kc : j*kc+k]
			for a := range hz {
				hz[a] += hj[a]
				mz[a] += mj[a]
			}
		}
	}
	for j, on := range code {
		if on != 0 {
			zhz += hz[j]
			zmz += mz[j]
		}
	}
	val := math.Max(xx-2*lin+zhz, 0) / (1 + zmz)
	for pass := 0; pass < cbpMaxPasses; pass++ {
		changed := false
		for j := range code {
			hj := w.h[j*kc : j*kc+k]
			mj := w.m[j*kc : j*kc+k]
			s := 1.0
			if code[j] != 0 {
				s = -1
			}
			nhz := zhz + 2*s*hz[j] + hj[j]
			nmz := zmz + 2*s*mz[j] + mj[j]
			nlin := lin + s*c[j]
			nv := math.Max(xx-2*nlin+nhz, 0) / (1 + nmz)
			if nv < val-bpFlipTol*(xx+val) {
				code[j] ^= 1
				zhz, zmz, lin, val = nhz, nmz, nlin, nv
				for a := range hz {
					hz[a] += s * hj[a]
					mz[a] += s * mj[a]
				}
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

// dropFeature deletes feature j from the fit of all rows, keeping M, A, H and the RSS
// exact: M loses row and column j by the block-inverse formula M' = M₋ⱼ − m mᵀ/μ (m = the
// rest of column j, μ = M_jj), A' = A₋ⱼ − m A_j/μ, and the RSS grows by ‖A_j‖²/μ.
func (w *cbpWorker) dropFeature(j int) {
	st := w.st
	k, kc, d := st.k, w.kc, st.d
	mu := w.m[j*kc+j]
	hjj := w.h[j*kc+j]
	mcol := w.p[:k]
	hcol := w.au[:k]
	for a := 0; a < k; a++ {
		mcol[a] = w.m[a*kc+j]
		hcol[a] = w.h[a*kc+j]
	}
	aj := st.a[j*d : (j+1)*d]
	for a := 0; a < k; a++ {
		if a == j {
			continue
		}
		ma := w.m[a*kc : a*kc+k]
		ha := w.h[a*kc : a*kc+k]
		fa := mcol[a] / mu
		for b := 0; b < k; b++ {
			ma[b] -= fa * mcol[b]
			ha[b] += -fa*hcol[b] - hcol[a]*mcol[b]/mu + fa*mcol[b]*hjj/mu
		}
		floats.AddScaled(st.a[a*d:(a+1)*d], -fa, aj)
	}
	st.rss += hjj / mu
	bpDeleteRowCol(w.m, k, kc, j)
	bpDeleteRowCol(w.h, k, kc, j)
	st.removeFeature(j)
}

// bpDeleteRowCol removes row and column j of the k×k matrix S with stride kc.
func bpDeleteRowCol(S []float64, k, kc, j int) {
	for a := 0; a < k; a++ {
		row := S[a*kc : a*kc+k]
		copy(row[j:], row[j+1:])
	}
	for a := j; a < k-1; a++ {
		copy(S[a*kc:a*kc+k-1], S[(a+1)*kc:(a+1)*kc+k-1])
	}
}
