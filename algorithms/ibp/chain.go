package ibp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"

	"featurelab/algorithms/internal/chol"
)

// chain is one Markov chain of the collapsed Gibbs sampler for the linear-Gaussian
// infinite latent feature model (Griffiths & Ghahramani 2005; Liu & Li Alg. 1).
//
// With λ = σ_X²/σ_A² and W = Z'Z + λI, the chain keeps M = W⁻¹ and H = M Z'X (K×D, the
// posterior mean of A given Z) up to date through every change of Z by rank-one
// (Sherman–Morrison) updates, so a flip of z_ik costs O(K + D) and a row O(K² + KD)
// (Liu & Li §3.2, App. B.2). Both are recomputed from scratch once per sweep, when the
// Metropolis steps change λ anyway, which also stops rounding drift.
type chain struct {
	cfg *config
	rng *rand.Rand
	err error // the first numerical failure; the chain stops at it (fail)

	n, d int
	x    []float64 // N×D data, row-major, read only (shared between chains)
	trXX float64   // tr(X'X)
	hN   float64   // H_N = Σ_{j≤N} 1/j
	lgN1 float64   // log N!
	// The prior's log factors of a shared feature owned by m other rows, by m = 0…N:
	// log(m/(N−m)), log(m/N) and log((N−m)/N).
	logOdds, logOn, logOff []float64

	k, kc int       // features in use, and capacity: the row stride of z and M
	z     []float64 // N×kc allocation, entries 0 or 1
	m     []int     // m_k: number of rows owning feature k
	M     []float64 // kc×kc: (Z'Z + λI)⁻¹
	H     []float64 // kc×D: M Z'X

	alpha, sx, sa float64
	logAlpha      float64 // log α, kept with α: tied to σ_X it can be far below the smallest float
	logLik        float64 // log P(X | Z, σ_X, σ_A) at the last refresh (Liu & Li eq. 12)

	stepX, stepA float64 // random-walk std of the log σ proposals
	accX, nX     int     // Metropolis acceptances / proposals of log σ_X after burn-in
	accA, nA     int

	// Scratch, sized by kc or D; nothing in a sweep allocates unless K outgrows kc.
	G, L    []float64 // kc×kc: Z'Z, and the Cholesky factor of Z'Z + λI
	B, Y    []float64 // kc×D: Z'X, and L⁻¹Z'X
	w       []float64 // kc: M z_i
	col     []float64 // kc
	e       []float64 // D: x_i − H'z_i
	hk      []float64 // D
	idx     []int     // kc: features of one row
	order   []int     // kc: features sorted by column
	perm    []int     // N: row order of a sweep
	P       []float64 // kc×kc: HH'
	u       []float64 // kc: He
	fperm   []int     // kc: features in random order
	blkLL   []float64 // 2^block: log conditional of each code of a block
	xSum    []float64 // D: Σ_i x_i, Z'X's row for an all-ones column
	colSave []float64 // N: a column of Z saved by a column move
	logw    []float64 // maxNew+1: log posterior weights of K_new
	lfact   []float64 // maxNew+1: log j!
}

// newChain makes a chain on the N×D data x (flat, row-major) starting from the
// allocation z0 (N×k0, flat) and the given α, σ_X, σ_A. Features owned by no row are
// dropped.
func newChain(cfg *config, rng *rand.Rand, x []float64, n, d int, z0 []float64, k0 int,
	alpha, sx, sa float64) *chain {
	c := &chain{cfg: cfg, rng: rng, n: n, d: d, alpha: alpha, sx: sx, sa: sa,
		stepX: cfg.step0, stepA: cfg.step0}
	c.setAlpha(alpha)
	c.xSum = make([]float64, d)
	c.setData(x)
	for j := 1; j <= n; j++ {
		c.hN += 1 / float64(j)
	}
	c.lgN1, _ = math.Lgamma(float64(n + 1))
	c.logOdds, c.logOn, c.logOff = make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)
	for m := range n + 1 {
		mf, nf := float64(m), float64(n)
		c.logOdds[m] = math.Log(mf / (nf - mf))
		c.logOn[m] = math.Log(mf / nf)
		c.logOff[m] = math.Log((nf - mf) / nf)
	}
	c.e = make([]float64, d)
	c.hk = make([]float64, d)
	c.perm = make([]int, n)
	for i := range c.perm {
		c.perm[i] = i
	}
	c.logw = make([]float64, cfg.maxNew+1)
	c.blkLL = make([]float64, 1<<max(cfg.block, 1))
	c.lfact = make([]float64, cfg.maxNew+1)
	for j := range c.lfact {
		c.lfact[j], _ = math.Lgamma(float64(j + 1))
	}
	c.ensureCap(k0)
	for f := 0; f < k0; f++ {
		owners := 0
		for i := 0; i < n; i++ {
			if z0[i*k0+f] != 0 {
				owners++
			}
		}
		if owners == 0 {
			continue
		}
		k := c.k
		for i := 0; i < n; i++ {
			c.z[i*c.kc+k] = z0[i*k0+f]
		}
		c.m[k] = owners
		c.k++
	}
	c.refresh()
	return c
}

// fail records that the collapsed likelihood could not be computed for the current Z and
// σ's: the Cholesky factorisation of Z'Z + (σ_X/σ_A)²I failed, or σ_X/σ_A left the
// supported range, which only rounding or non-finite values can cause. The chain's M, H
// and log-likelihood would be wrong from here on, so it stops with this error rather than
// going on with a different ridge or a log-likelihood of 0.
func (c *chain) fail() {
	if c.err == nil {
		c.err = fmt.Errorf("IBP sampler: the likelihood cannot be computed at K = %d, σ_X = %.3g, σ_A = %.3g (Z'Z + (σ_X/σ_A)²I is not positive definite)", c.k, c.sx, c.sa)
	}
}

// setData points the chain at the data x (N×D, flat) and computes tr(X'X) and Σ_i x_i.
// The caller must refresh before sampling.
func (c *chain) setData(x []float64) {
	c.x, c.trXX = x, 0
	for _, v := range x {
		c.trXX += v * v
	}
	clear(c.xSum)
	for i := 0; i < c.n; i++ {
		for j, v := range x[i*c.d : i*c.d+c.d] {
			c.xSum[j] += v
		}
	}
}

// lambda is σ_X²/σ_A², the ridge of W = Z'Z + λI.
func (c *chain) lambda() float64 { r := c.sx / c.sa; return r * r }

// ensureCap grows the capacity to hold at least k features, keeping the contents of z, m,
// M and H. Buffers double, so growth is rare.
func (c *chain) ensureCap(k int) {
	if k <= c.kc && c.z != nil {
		return
	}
	nc := max(2*c.kc, k, 8)
	oc, n, d := c.kc, c.n, c.d
	z := make([]float64, n*nc)
	M := make([]float64, nc*nc)
	for i := 0; i < n; i++ {
		copy(z[i*nc:i*nc+c.k], c.z[i*oc:i*oc+c.k])
	}
	for a := 0; a < c.k; a++ {
		copy(M[a*nc:a*nc+c.k], c.M[a*oc:a*oc+c.k])
	}
	H := make([]float64, nc*d)
	copy(H, c.H[:c.k*d])
	m := make([]int, nc)
	copy(m, c.m[:c.k])
	c.z, c.M, c.H, c.m, c.kc = z, M, H, m, nc
	// G and B are live during column moves, which may add a feature.
	G := make([]float64, nc*nc)
	for a := 0; a < c.k; a++ {
		copy(G[a*nc:a*nc+c.k], c.G[a*oc:a*oc+c.k])
	}
	B := make([]float64, nc*d)
	copy(B, c.B[:c.k*d])
	c.G, c.B = G, B
	c.L = make([]float64, nc*nc)
	c.Y = make([]float64, nc*d)
	w := make([]float64, nc)
	copy(w, c.w) // updateRow grows the capacity while w = Mz_i is live
	c.w = w
	c.col = make([]float64, nc)
	c.idx = make([]int, nc)
	c.order = make([]int, nc)
	c.fperm = make([]int, nc)
}

// gram sets G = Z'Z and B = Z'X over all rows but skip (−1: all rows).
func (c *chain) gram(skip int) {
	k, kc, d := c.k, c.kc, c.d
	for a := 0; a < k; a++ {
		clear(c.G[a*kc : a*kc+k])
	}
	clear(c.B[:k*d])
	for i := 0; i < c.n; i++ {
		if i == skip {
			continue
		}
		zi := c.z[i*kc : i*kc+k]
		idx := c.idx[:0]
		for f, v := range zi {
			if v != 0 {
				idx = append(idx, f)
			}
		}
		xi := c.x[i*d : i*d+d]
		for _, a := range idx {
			ga := c.G[a*kc : a*kc+k]
			for _, b := range idx {
				ga[b]++
			}
			ba := c.B[a*d : a*d+d]
			for j, v := range xi {
				ba[j] += v
			}
		}
	}
}

// factor sets L to the Cholesky factor of G + λI and Y = L⁻¹B, and returns log|G + λI|
// and tr(B'(G + λI)⁻¹B) = ‖Y‖²_F.
func (c *chain) factor(lam float64) (logdet, quad float64, ok bool) {
	k, kc, d := c.k, c.kc, c.d
	for a := 0; a < k; a++ {
		copy(c.L[a*kc:a*kc+a+1], c.G[a*kc:a*kc+a+1])
		c.L[a*kc+a] += lam
	}
	if !chol.Factor(c.L, k, kc, 0) {
		return 0, 0, false
	}
	logdet = chol.LogDet(c.L, k, kc)
	copy(c.Y[:k*d], c.B[:k*d])
	chol.ForwardSolve(c.L, k, kc, c.Y, d, d)
	for _, v := range c.Y[:k*d] {
		quad += v * v
	}
	return logdet, quad, true
}

// logLikAt is the collapsed log-likelihood log P(X | Z, σ_X, σ_A) of Liu & Li eq. (12)
// for the Z summarised in G and B:
//
//	−(ND/2)log 2π − (N−K)D log σ_X − KD log σ_A − (D/2)log|Z'Z + λI| − tr(X'(I − ZMZ')X)/(2σ_X²).
//
// It reports false for σ's outside the supported range.
func (c *chain) logLikAt(sx, sa float64) (float64, bool) {
	lam := (sx / sa) * (sx / sa)
	if !(lam >= lambdaMin && lam <= lambdaMax) || math.IsInf(sx, 0) || math.IsInf(sa, 0) {
		return 0, false
	}
	logdet, quad, ok := c.factor(lam)
	if !ok {
		return 0, false
	}
	n, d, k := float64(c.n), float64(c.d), float64(c.k)
	resid := math.Max(c.trXX-quad, 0)
	return -0.5*n*d*math.Log(2*math.Pi) - (n-k)*d*math.Log(sx) - k*d*math.Log(sa) -
		0.5*d*logdet - resid/(2*sx*sx), true
}

// refresh recomputes G, B, M, H and logLik from Z and the current σ's.
func (c *chain) refresh() {
	c.gram(-1)
	c.setLogLik()
	c.invert(c.lambda())
}

// setLogLik sets logLik for the current Z and σ's from G and B.
func (c *chain) setLogLik() {
	ll, ok := c.logLikAt(c.sx, c.sa)
	if !ok {
		c.fail()
	}
	c.logLik = ll
}

// invert sets M = (G + λI)⁻¹ and H = M B from the Cholesky factor of G + λI, which it
// computes unless L and Y already hold it for this λ.
func (c *chain) invert(lam float64) {
	k, kc, d := c.k, c.kc, c.d
	if _, _, ok := c.factor(lam); !ok {
		c.fail()
		return
	}
	chol.Inverse(c.L, k, kc, c.M)
	copy(c.H[:k*d], c.Y[:k*d])
	chol.BackSolve(c.L, k, kc, c.H, d, d)
}

// removeFeature deletes feature f from Z and updates M and H exactly: deleting row and
// column f of W turns W⁻¹ into its Schur complement M_SS − M_Sf M_fS / M_ff, and H = MZ'X
// into H_S − M_Sf H_f / M_ff. M_ff ≥ 1/W_ff, so this is well conditioned.
func (c *chain) removeFeature(f int) {
	k, kc, d := c.k, c.kc, c.d
	M, H := c.M, c.H
	mff := M[f*kc+f]
	col := c.col[:k]
	copy(col, M[f*kc:f*kc+k]) // row f = column f, M is symmetric
	hf := c.hk
	copy(hf, H[f*d:f*d+d])
	for a := 0; a < k; a++ {
		if a == f {
			continue
		}
		g := col[a] / mff
		ra := M[a*kc : a*kc+k]
		for b, v := range col {
			ra[b] -= g * v
		}
		floats.AddScaled(H[a*d:a*d+d], -g, hf)
	}
	c.dropColumn(f)
}

// dropColumn removes feature f by moving the last feature into its place (features are
// unordered: the sampler works on equivalence classes of Z).
func (c *chain) dropColumn(f int) {
	last, kc, d := c.k-1, c.kc, c.d
	if f != last {
		for i := 0; i < c.n; i++ {
			c.z[i*kc+f] = c.z[i*kc+last]
		}
		c.m[f] = c.m[last]
		copy(c.M[f*kc:f*kc+last+1], c.M[last*kc:last*kc+last+1])
		for a := 0; a <= last; a++ {
			c.M[a*kc+f] = c.M[a*kc+last]
		}
		copy(c.H[f*d:f*d+d], c.H[last*d:last*d+d])
	}
	for i := 0; i < c.n; i++ {
		c.z[i*kc+last] = 0
	}
	c.m[last] = 0
	c.k--
}

// rowStats sets w = M z_i and e = x_i − H'z_i and returns s = z_i'M z_i.
func (c *chain) rowStats(i int) float64 {
	k, kc, d := c.k, c.kc, c.d
	zi := c.z[i*kc : i*kc+k]
	w := c.w[:k]
	clear(w)
	e := c.e
	copy(e, c.x[i*d:i*d+d])
	for f, v := range zi {
		if v == 0 {
			continue
		}
		mf := c.M[f*kc : f*kc+k]
		for a, u := range mf {
			w[a] += u
		}
		floats.Sub(e, c.H[f*d:f*d+d])
	}
	var s float64
	for f, v := range zi {
		if v != 0 {
			s += w[f]
		}
	}
	return s
}

// downdateMin is the smallest 1 − z_i'Mz_i for which row i is removed by a rank-one
// downdate; below it the error amplification 1/(1 − s) is too large and M, H are
// recomputed from the other rows instead.
const downdateMin = 1e-6

// updateRow is one Gibbs update of row i (Liu & Li Alg. 1, lines 4–7):
//
//  1. the features only row i owns (its singletons) are taken out of M and H;
//  2. row i is taken out: M ← M + ww'/(1−s), H ← H − we'/(1−s), with w = Mz_i,
//     s = z_i'w, e = x_i − H'z_i (Sherman–Morrison downdate);
//  3. each shared z_ik is resampled from prior m_{−i,k}/N times the likelihood. Given
//     the other rows, x_i ~ N(H'z_i, σ_X²(1 + z_i'Mz_i + k_s/λ)I) with k_s singletons
//     kept (their columns of W decouple as λI once row i is out), so a flip updates w,
//     e and s in O(K + D) (Liu & Li eq. 7);
//  4. the singletons are dropped and K_new ∈ 0..maxNew drawn from its posterior with
//     Poisson(α/N) prior, whose likelihood is the same Gaussian with k_s → K_new
//     (Liu & Li eq. 8, App. B.2: adding e_i columns only adds K_new/λ to the variance);
//  5. row i (with its new features) is put back by the matching rank-one update.
func (c *chain) updateRow(i int) {
	d := c.d

	// 1. Singletons.
	ks := 0
	for f := c.k - 1; f >= 0; f-- {
		if c.z[i*c.kc+f] != 0 && c.m[f] == 1 {
			c.removeFeature(f)
			ks++
		}
	}
	lam := c.lambda()

	// 2. Remove row i.
	k, kc := c.k, c.kc
	zi := c.z[i*kc : i*kc+k]
	s := c.rowStats(i)
	w, e := c.w[:k], c.e
	if den := 1 - s; den >= downdateMin {
		c.rankOne(w, e, den, 1)
		// The leave-one-out quantities follow without another pass:
		// M₋ᵢz = w/(1−s), z'M₋ᵢz = s/(1−s), x − H₋ᵢ'z = e/(1−s).
		inv := 1 / den
		for a := range w {
			w[a] *= inv
		}
		floats.Scale(inv, e)
		s *= inv
	} else {
		c.gram(i)
		c.invert(lam)
		s = c.rowStats(i)
	}
	for f, v := range zi {
		if v != 0 {
			c.m[f]--
		}
	}

	// 3. Shared features.
	sing := float64(ks) / lam
	var r float64
	if c.cfg.block > 1 {
		s, r = c.sampleSharedBlocks(zi, s, sing)
	} else {
		s, r = c.sampleSharedSingle(zi, s, sing)
	}

	// 4. New features: K_new | rest ∝ N(x_i; H'z_i, σ_X²(1+s+K_new/λ)I)·Poisson(K_new; α/N).
	c.knewLogPost(s, r, lam)
	best := math.Inf(-1)
	for _, v := range c.logw {
		best = math.Max(best, v)
	}
	var tot float64
	for j, v := range c.logw {
		c.logw[j] = math.Exp(v - best)
		tot += c.logw[j]
	}
	u := c.rng.Float64() * tot
	knew := 0
	for knew < len(c.logw)-1 && u >= c.logw[knew] {
		u -= c.logw[knew]
		knew++
	}
	if knew > 0 {
		c.ensureCap(k + knew)
		kc = c.kc
		zi = c.z[i*kc : i*kc+k+knew]
		w = c.w[:k+knew]
		// The new columns are zero outside row i: with row i out, their block of W is λI.
		for f := k; f < k+knew; f++ {
			for a := 0; a < k+knew; a++ {
				c.M[f*kc+a] = 0
				c.M[a*kc+f] = 0
			}
			c.M[f*kc+f] = 1 / lam
			clear(c.H[f*d : f*d+d])
			for n := 0; n < c.n; n++ {
				c.z[n*kc+f] = 0
			}
			zi[f] = 1
			c.m[f] = 0
			w[f] = 1 / lam
		}
		s += float64(knew) / lam
		k += knew
		c.k = k
	}

	// 5. Put row i back: M ← M − ww'/(1+s), H ← H + we'/(1+s).
	den := 1 + s
	c.rankOne(w, e, den, -1)
	for f, v := range zi {
		if v != 0 {
			c.m[f]++
		}
	}
}

// rankOne applies the rank-one change of a row to M and H: M ← M + sign·ww'/den and
// H ← H − sign·we'/den, sign +1 to take a row out, −1 to put it back. The sign multiplies
// w_a/den, which is exact, so either way each entry changes by the same rounded amount.
func (c *chain) rankOne(w, e []float64, den, sign float64) {
	k, kc, d := len(w), c.kc, c.d
	for a := 0; a < k; a++ {
		if w[a] == 0 {
			continue
		}
		g := sign * (w[a] / den)
		ra := c.M[a*kc : a*kc+k]
		for b, v := range w {
			ra[b] += g * v
		}
		floats.AddScaled(c.H[a*d:a*d+d], -g, e)
	}
}

// knewLogPost sets c.logw[j], j = 0..maxNew, to the log posterior of K_new = j for a row
// whose shared features are set and whose singletons are out, up to a constant: s is
// z_i'M₋ᵢz_i and r = ‖x_i − H₋ᵢ'z_i‖² over the shared features, lam = σ_X²/σ_A².
//
// Liu & Li (§3.2, App. B.2, eqs. 28–31) get the likelihood ratio of K_new = j+1 to j
// recursively, appending one column e_i at a time and updating μ and γ_·i. With row i
// left out of M and H, that recursion has a closed form: a column e_i is zero on every
// other row, so its feature's posterior given the other rows is its prior N(0, σ_A²I),
// and x_i ~ N(H₋ᵢ'z_i, σ_X²(1 + s + j/λ)I). Each step of the report's recursion adds 1/λ
// to the variance factor 1 + s + j/λ (TestIBPKNewMatchesRecursion checks this against
// eqs. 30–31 and against the full collapsed likelihood), so the weights cost O(maxNew)
// here instead of O(N·D) per step.
func (c *chain) knewLogPost(s, r, lam float64) {
	inv2s := 1 / (2 * c.sx * c.sx)
	hd := 0.5 * float64(c.d)
	la := c.logAlpha - math.Log(float64(c.n))
	if c.cfg.bug == bugPoissonAlpha {
		la = c.logAlpha
	}
	for j := range c.logw {
		base := 1 + s + float64(j)/lam
		c.logw[j] = -hd*math.Log(base) - r*inv2s/base - c.lfact[j]
		if j > 0 { // 0 · log α would be NaN for α = 0
			c.logw[j] += float64(j) * la
		}
	}
}

// rows runs one pass of updateRow over all rows in a random order, checking ctx between
// rows.
func (c *chain) rows(ctx context.Context) error {
	c.rng.Shuffle(len(c.perm), func(a, b int) { c.perm[a], c.perm[b] = c.perm[b], c.perm[a] })
	for _, i := range c.perm {
		if err := ctx.Err(); err != nil {
			return err
		}
		if c.err != nil {
			return c.err
		}
		c.updateRow(i)
	}
	return nil
}

// sweep is one iteration of Liu & Li Alg. 1: the rows, then α | Z, then column moves
// (moves.go), then σ_X and σ_A by Metropolis, then a full recompute of M and H. t is the sweep index; adapt turns on
// step-size adaptation (burn-in).
func (c *chain) sweep(ctx context.Context, t int, adapt bool) error {
	if err := c.rows(ctx); err != nil {
		return err
	}
	c.sampleAlpha()
	c.gram(-1)
	c.setLogLik()
	if c.err != nil {
		return c.err
	}
	c.columnMoves(c.cfg.colMoves)
	c.sampleSigmas(t, adapt)
	c.invert(c.lambda())
	return c.err
}

// sampleSharedSingle resamples the shared features of row i one at a time (Liu & Li
// Alg. 1, lines 4–6). On entry w = M₋ᵢz_i, e = x_i − H₋ᵢ'z_i and s = z_i'M₋ᵢz_i; sing is
// the variance k_s/λ the row's singletons add. It keeps w and e current and returns the
// final s and r = ‖e‖².
func (c *chain) sampleSharedSingle(zi []float64, s, sing float64) (float64, float64) {
	k, kc, d := c.k, c.kc, c.d
	w, e := c.w[:k], c.e
	inv2s := 1 / (2 * c.sx * c.sx)
	hd := 0.5 * float64(d)
	var r float64
	for _, v := range e {
		r += v * v
	}
	cur := -hd*math.Log(1+s+sing) - r*inv2s/(1+s+sing)
	// The scan order is random, not 0..K−1: labels carry history (new features are
	// appended, removed ones replaced by the last), and a scan in label order would make
	// the update depend on it. The Geweke test detects that bias (with 3·10⁶ iterations).
	fp := c.fperm[:k]
	for f := range fp {
		fp[f] = f
	}
	c.rng.Shuffle(k, func(a, b int) { fp[a], fp[b] = fp[b], fp[a] })
	for _, f := range fp {
		m := c.m[f] // m_{−i,f} ≥ 1 once the singletons are out
		delta := 1.0
		if zi[f] != 0 {
			delta = -1
		}
		s1 := s + 2*delta*w[f] + c.M[f*kc+f]
		hf := c.H[f*d : f*d+d]
		var r1 float64
		for j, v := range e {
			t := v - delta*hf[j]
			r1 += t * t
		}
		base1 := 1 + s1 + sing
		ll1 := -hd*math.Log(base1) - r1*inv2s/base1
		lOn, lOff := ll1+c.logOn[m], cur+c.logOff[m]
		if zi[f] != 0 {
			lOn, lOff = cur+c.logOn[m], ll1+c.logOff[m]
		}
		on := c.rng.Float64()*(1+math.Exp(lOff-lOn)) < 1
		if on == (zi[f] != 0) {
			continue
		}
		zi[f] = 1 - zi[f]
		s, r, cur = s1, r1, ll1
		c.applyFlip(f, delta, w, e)
	}
	return s, r
}

// applyFlip changes w = M z_i and e = x_i − H'z_i for z_if changed by delta (±1): w by
// delta times M's row f, e by −delta times H's row f.
func (c *chain) applyFlip(f int, delta float64, w, e []float64) {
	for a, v := range c.M[f*c.kc : f*c.kc+len(w)] {
		w[a] += delta * v
	}
	floats.AddScaled(e, -delta, c.H[f*c.d:f*c.d+len(e)])
}
