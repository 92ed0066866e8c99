package ibp

import "math"

// Column moves: Metropolis–Hastings proposals that change whole columns of Z at once.
//
// The row-wise Gibbs updates change one row at a time, and from a high-noise start they
// settle into representations such as "a feature owned by (almost) every row whose value
// is the sum of two patterns, plus a negative feature for the rows that lack each
// pattern" — as good a fit as the true two patterns, but with one feature more (worse by
// its Occam factor, ~100 nats on the tetris data), and every row-wise path out of it
// passes through far worse states. The moves below are the elementary column operations
// that map such representations into each other at (nearly) no cost in fit, since they
// keep the column space of Z; they are proposed symmetrically, so each is accepted with
// probability min(1, π(Z')/π(Z)).
//
// The target π is over Z with labelled columns, π_L(Z) = P([Z]) ∏_h K_h!/K! ∝
// α^K/K! · ∏_k (N − m_k)!(m_k − 1)!/N! · P(X|Z) (the IBP class probability spread evenly
// over the labellings of the class), for which every proposal here is symmetric. The
// row updates are exact Gibbs steps for π_L too (their conditionals do not involve
// labels), so the chain still samples P([Z] | X).
//
//   - pair (k, l), l ⊊ k: subtract, z_k ← z_k − z_l; its reverse, for disjoint k and l, is
//     add, z_k ← z_k + z_l. Values follow as a_l ← a_l + a_k.
//   - pair (k, l), l ⊊ k: reflect, z_l ← z_k − z_l (its own reverse); values a_k ← a_k + a_l,
//     a_l ← −a_l. This turns "everyone + negative feature for the rows without a pattern"
//     into the pattern itself.
//   - duplicate a feature (a copy with the same column), and its reverse, merge two
//     features with identical columns (values add). A pattern split between two
//     features owned by the same rows cannot be healed row by row.
//   - birth of a feature owned by every row, and its reverse, death of such a feature:
//     the all-ones feature whose value the reflections have emptied is removed by death
//     (the row updates bring a near-all-ones feature to all-ones, the IBP prior favouring
//     popular features).
//
// Each proposal costs O(N + K + D) to apply to Z, Z'Z and Z'X and a Cholesky solve,
// O(K³ + K²D), to evaluate; c.G, c.B and c.logLik must be current and stay so.

// columnMoves makes n column-move proposals.
func (c *chain) columnMoves(n int) {
	for range n {
		switch r := c.rng.IntN(6); r {
		case 0, 1:
			// Drawn either way, so that the other moves' share does not depend on the
			// switch (cfg.keepForm).
			if !c.cfg.keepForm {
				c.pairMove(r == 1)
			}
		case 2:
			c.allOnesBirth()
		case 3:
			c.allOnesDeath()
		case 4:
			c.duplicate()
		case 5:
			c.mergeIdentical()
		}
	}
}

// logMTerm is log[(N − m)!(m − 1)!], the part of the IBP prior that depends on one m_k.
func (c *chain) logMTerm(m int) float64 {
	a, _ := math.Lgamma(float64(c.n - m + 1))
	b, _ := math.Lgamma(float64(m))
	return a + b
}

// accept decides a symmetric proposal with log target ratio logr.
func (c *chain) accept(logr float64) bool {
	return logr >= 0 || math.Log(c.rng.Float64()) < logr
}

// distinctPair draws an ordered pair of distinct features (a, b) uniformly; c.k ≥ 2.
func (c *chain) distinctPair() (a, b int) {
	a = c.rng.IntN(c.k)
	b = c.rng.IntN(c.k - 1)
	if b >= a {
		b++
	}
	return a, b
}

// pairMove proposes subtract/add (reflect false) or reflect on a uniformly chosen
// ordered pair of features (a, b).
func (c *chain) pairMove(reflect bool) {
	k, kc, d := c.k, c.kc, c.d
	if k < 2 {
		return
	}
	a, b := c.distinctPair()
	nested, disjoint := true, true // z_b ⊆ z_a, z_b ∩ z_a = ∅
	for i := 0; i < c.n; i++ {
		if c.z[i*kc+b] != 0 {
			if c.z[i*kc+a] == 0 {
				nested = false
			} else {
				disjoint = false
			}
		}
	}
	nested = nested && c.m[b] < c.m[a]
	// The changed column t becomes z_a + sgn·z_b.
	var t int
	var sgn float64
	switch {
	case reflect && nested:
		t, sgn = b, -1
	case !reflect && nested:
		t, sgn = a, -1
	case !reflect && disjoint:
		t, sgn = a, 1
	default:
		return
	}

	// Save column t of Z, row t of G and B, then apply.
	oldZ, oldG, oldB := c.saveBuf(c.n), c.col[:k], c.hk
	for i := 0; i < c.n; i++ {
		oldZ[i] = c.z[i*kc+t]
	}
	copy(oldG, c.G[t*kc:t*kc+k])
	copy(oldB, c.B[t*d:t*d+d])
	oldM, oldLL := c.m[t], c.logLik

	for i := 0; i < c.n; i++ {
		c.z[i*kc+t] = c.z[i*kc+a] + sgn*c.z[i*kc+b]
	}
	gaa, gab, gbb := c.G[a*kc+a], c.G[a*kc+b], c.G[b*kc+b]
	for j := 0; j < k; j++ {
		if j != t {
			v := c.G[a*kc+j] + sgn*c.G[b*kc+j]
			c.G[t*kc+j], c.G[j*kc+t] = v, v
		}
	}
	c.G[t*kc+t] = gaa + 2*sgn*gab + gbb
	bt, ba, bb := c.B[t*d:t*d+d], c.B[a*d:a*d+d], c.B[b*d:b*d+d]
	for j := range bt {
		bt[j] = ba[j] + sgn*bb[j]
	}
	c.m[t] = int(c.G[t*kc+t])

	if ll, ok := c.logLikAt(c.sx, c.sa); ok &&
		c.accept(ll-oldLL+c.logMTerm(c.m[t])-c.logMTerm(oldM)) {
		c.logLik = ll
		return
	}
	for i := 0; i < c.n; i++ {
		c.z[i*kc+t] = oldZ[i]
	}
	for j := 0; j < k; j++ {
		c.G[t*kc+j], c.G[j*kc+t] = oldG[j], oldG[j]
	}
	copy(c.B[t*d:t*d+d], oldB)
	c.m[t] = oldM
}

// saveBuf returns scratch of length n for a saved column of Z.
func (c *chain) saveBuf(n int) []float64 {
	if cap(c.colSave) < n {
		c.colSave = make([]float64, n)
	}
	return c.colSave[:n]
}

// allOnesBirth proposes a new feature owned by every row. In the labelled target the
// new column's position is uniform among K+1 (appending is equivalent, the chain being
// label-blind), and death picks that feature with probability 1/(K+1): symmetric.
func (c *chain) allOnesBirth() {
	k, d := c.k, c.d
	c.ensureCap(k + 1)
	kc := c.kc
	for i := 0; i < c.n; i++ {
		c.z[i*kc+k] = 1
	}
	for j := 0; j < k; j++ {
		v := float64(c.m[j])
		c.G[k*kc+j], c.G[j*kc+k] = v, v
	}
	c.G[k*kc+k] = float64(c.n)
	copy(c.B[k*d:k*d+d], c.xSum)
	c.m[k] = c.n
	c.acceptNewColumn()
}

// acceptNewColumn accepts or undoes column c.k, set up in z, G, B and m by a birth move,
// by Metropolis–Hastings: the π_L ratio is α/(K+1) for α^K/K!, and for a column owned by
// m rows (N−m)!(m−1)!/N!.
func (c *chain) acceptNewColumn() {
	k, kc := c.k, c.kc
	c.k++
	ll, ok := c.logLikAt(c.sx, c.sa)
	if ok && c.accept(ll-c.logLik+(c.logAlpha-math.Log(float64(k+1)))+c.logMTerm(c.m[k])-c.lgN1) {
		c.logLik = ll
		return
	}
	c.k--
	for i := 0; i < c.n; i++ {
		c.z[i*kc+k] = 0
	}
	c.m[k] = 0
}

// allOnesDeath proposes to delete a uniformly chosen feature if every row owns it.
func (c *chain) allOnesDeath() {
	k := c.k
	if k == 0 {
		return
	}
	f := c.rng.IntN(k)
	if c.m[f] != c.n {
		return
	}
	// Move f to the end, so that dropping it is c.k-- and undoing it is c.k++.
	c.swapFeatures(f, k-1)
	c.k--
	ll, ok := c.logLikAt(c.sx, c.sa)
	if ok && c.accept(ll-c.logLik-(c.logAlpha-math.Log(float64(k)))-c.logMTerm(c.n)+c.lgN1) {
		c.logLik = ll
		for i := 0; i < c.n; i++ {
			c.z[i*c.kc+k-1] = 0
		}
		c.m[k-1] = 0
		return
	}
	c.k++
}

// swapFeatures exchanges the labels of features f and g in Z, m, G and B (M and H are
// not kept during column moves; the sweep recomputes them).
func (c *chain) swapFeatures(f, g int) {
	if f == g {
		return
	}
	k, kc, d := c.k, c.kc, c.d
	for i := 0; i < c.n; i++ {
		c.z[i*kc+f], c.z[i*kc+g] = c.z[i*kc+g], c.z[i*kc+f]
	}
	c.m[f], c.m[g] = c.m[g], c.m[f]
	for j := 0; j < k; j++ {
		c.G[f*kc+j], c.G[g*kc+j] = c.G[g*kc+j], c.G[f*kc+j]
	}
	for j := 0; j < k; j++ {
		c.G[j*kc+f], c.G[j*kc+g] = c.G[j*kc+g], c.G[j*kc+f]
	}
	bf, bg := c.B[f*d:f*d+d], c.B[g*d:g*d+d]
	for j := range bf {
		bf[j], bg[j] = bg[j], bf[j]
	}
}

// duplicate proposes a copy of a uniformly chosen feature, appended. Together with
// mergeIdentical it is symmetric in the labelled target: if the column has c copies, c
// choices of the feature and c+1 insertion places give the same Z',
// (c(c+1))/(K(K+1)) in all, and merge reaches Z back by any of the (c+1)c ordered pairs
// of copies out of (K+1)K.
func (c *chain) duplicate() {
	k, d := c.k, c.d
	if k == 0 {
		return
	}
	f := c.rng.IntN(k)
	c.ensureCap(k + 1)
	kc := c.kc
	for i := 0; i < c.n; i++ {
		c.z[i*kc+k] = c.z[i*kc+f]
	}
	for j := 0; j < k; j++ {
		v := c.G[f*kc+j]
		c.G[k*kc+j], c.G[j*kc+k] = v, v
	}
	c.G[k*kc+k] = c.G[f*kc+f]
	copy(c.B[k*d:k*d+d], c.B[f*d:f*d+d])
	c.m[k] = c.m[f]
	c.acceptNewColumn()
}

// mergeIdentical proposes to delete feature b of a uniformly chosen ordered pair (a, b)
// whose columns are identical.
func (c *chain) mergeIdentical() {
	k, kc := c.k, c.kc
	if k < 2 {
		return
	}
	a, b := c.distinctPair()
	if c.m[a] != c.m[b] {
		return
	}
	for i := 0; i < c.n; i++ {
		if c.z[i*kc+a] != c.z[i*kc+b] {
			return
		}
	}
	m := c.m[b]
	c.swapFeatures(b, k-1)
	c.k--
	ll, ok := c.logLikAt(c.sx, c.sa)
	if ok && c.accept(ll-c.logLik-(c.logAlpha-math.Log(float64(k)))-c.logMTerm(m)+c.lgN1) {
		c.logLik = ll
		for i := 0; i < c.n; i++ {
			c.z[i*kc+k-1] = 0
		}
		c.m[k-1] = 0
		return
	}
	c.k++
}
