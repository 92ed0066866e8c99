package features

import "gonum.org/v1/gonum/floats"

// bpState is the working state of one restart of BP-means or collapsed BP-means: the N×K
// binary allocation Z and the K×D features A in flat row-major slices with room to grow,
// and the residuals R = X − ZA. A worker keeps one bpState for all its restarts, so after
// the first restart the hot loops allocate nothing.
//
// Feature slots 0..k−1 are in use; a slot whose owners count is 0 is dead (its last owner
// flipped it off during a sweep) and is squeezed out by compact before the A-step. Z has
// stride kcap, so adding a feature is writing one column, not moving the matrix.
type bpState struct {
	n, d int
	x    []float64 // N×D data, row-major; shared by the workers, never written

	k      int       // feature slots in use, dead ones included
	alive  int       // slots with at least one owner
	kcap   int       // capacity in features: the stride of z, the rows of a
	z      []uint8   // N×kcap: z[i*kcap+j] is 1 when row i owns feature j
	a      []float64 // kcap×D features, row j = feature j
	anorm  []float64 // ‖a_j‖², kept with a for the flip test
	owners []int     // rows owning feature j
	r      []float64 // N×D residuals X − ZA, kept by BP-means++ only
	rnorm  []float64 // ‖r_i‖², kept by BP-means++ only
	rss    float64   // ‖X − ZA‖²_F
	xss    float64   // ‖X‖²_F
	rbuf   []float64 // D: one row's residual

	// Scratch of the A-step and BP-means++, sized by reserve.
	gram []float64 // kcap×kcap Z'Z
	chol []float64 // kcap×kcap Cholesky factor L of Z'Z (rows = kept features)
	keep []int     // kcap
	s    []float64 // kcap×D: Z'X, then solved in place into A
	on   []int     // kcap: the features one row owns
	dots []float64 // N

	// The exact Z-step of BP-means (bp_zstep.go).
	exactMaxK int       // largest number of live features it handles; 0 turns it off
	g         []float64 // kcap×kcap AAᵀ, kept through a sweep
	live      []int     // kcap: the live feature slots, in order
	nlive     int
	q         []float64 // 2^nlive: cᵀGc for every code c over the live features
	qg        []float64 // q in Gray-code order
	fl        []uint8   // the Gray walk's steps (see buildExact)
	b         []float64 // kcap: Ax for the row at hand
	stale     bool      // the live set changed since q was built
}

func newBPState(x []float64, n, d int) *bpState {
	return &bpState{n: n, d: d, x: x, r: make([]float64, n*d), rnorm: make([]float64, n),
		dots: make([]float64, n), exactMaxK: bpExactMaxK, xss: floats.Dot(x, x),
		rbuf: make([]float64, d)}
}

// reserve makes room for at least kmax feature slots, keeping the current ones and AAᵀ
// (st.g, kept through a sweep). It grows by doubling, so a run reallocates O(log K) times
// at most, and memory stays O(N·K + K²) — never O(N²), as room for a feature per row
// would be.
func (st *bpState) reserve(kmax int) {
	if kmax <= st.kcap {
		return
	}
	kc := max(kmax, 2*st.kcap, 8)
	z := make([]uint8, st.n*kc)
	for i := 0; i < st.n; i++ {
		copy(z[i*kc:i*kc+st.k], st.z[i*st.kcap:i*st.kcap+st.k])
	}
	a := make([]float64, kc*st.d)
	copy(a, st.a[:st.k*st.d])
	anorm := make([]float64, kc)
	copy(anorm, st.anorm[:st.k])
	owners := make([]int, kc)
	copy(owners, st.owners[:st.k])
	old := st.kcap
	st.z, st.a, st.anorm, st.owners, st.kcap = z, a, anorm, owners, kc
	st.gram = make([]float64, kc*kc)
	st.chol = make([]float64, kc*kc)
	st.keep = make([]int, kc)
	st.s = make([]float64, kc*st.d)
	st.on = make([]int, kc)
	g := make([]float64, kc*kc)
	for j := 0; j < st.k && st.g != nil; j++ {
		copy(g[j*kc:j*kc+st.k], st.g[j*old:j*old+st.k])
	}
	st.g = g
	st.live = make([]int, kc)
	st.b = make([]float64, kc)
}

// feature returns row j of A.
func (st *bpState) feature(j int) []float64 { return st.a[j*st.d : (j+1)*st.d] }

// zrow returns row i of Z over the slots in use.
func (st *bpState) zrow(i int) []uint8 { return st.z[i*st.kcap : i*st.kcap+st.k] }

// rowResidual sets st.rbuf = x_i − z_iA and returns it.
func (st *bpState) rowResidual(i int) []float64 {
	r := st.rbuf
	copy(r, st.xrow(i))
	for j, on := range st.zrow(i) {
		if on != 0 {
			floats.Sub(r, st.feature(j))
		}
	}
	return r
}

// residual returns row i of R.
func (st *bpState) residual(i int) []float64 { return st.r[i*st.d : (i+1)*st.d] }

// xrow returns row i of X.
func (st *bpState) xrow(i int) []float64 { return st.x[i*st.d : (i+1)*st.d] }

// addFeature appends feature a, owned by row i only, and returns its slot. The caller has
// reserved room for it.
func (st *bpState) addFeature(a []float64, i int) int {
	j := st.k
	for m := 0; m < st.n; m++ {
		st.z[m*st.kcap+j] = 0
	}
	st.z[i*st.kcap+j] = 1
	f := st.a[j*st.d : (j+1)*st.d]
	copy(f, a)
	st.anorm[j] = floats.Dot(f, f)
	st.owners[j] = 1
	st.k++
	st.alive++
	return j
}

// compact squeezes out the dead feature slots (no owners), keeping the order of the
// others. The features owned by nobody are removed, as MAD-Bayes §3 requires before the
// A-step: they cost λ² and explain nothing.
func (st *bpState) compact() {
	kept := 0
	for j := 0; j < st.k; j++ {
		if st.owners[j] == 0 {
			continue
		}
		if kept != j {
			copy(st.a[kept*st.d:(kept+1)*st.d], st.a[j*st.d:(j+1)*st.d])
			st.anorm[kept] = st.anorm[j]
			st.owners[kept] = st.owners[j]
			for i := 0; i < st.n; i++ {
				row := st.z[i*st.kcap:]
				row[kept] = row[j]
			}
		}
		kept++
	}
	for i := 0; i < st.n; i++ {
		clear(st.z[i*st.kcap+kept : i*st.kcap+st.k])
	}
	st.k, st.alive = kept, kept
}

// removeFeature deletes slot j at once, shifting the later slots down by one.
func (st *bpState) removeFeature(j int) {
	d := st.d
	copy(st.a[j*d:], st.a[(j+1)*d:st.k*d])
	copy(st.anorm[j:], st.anorm[j+1:st.k])
	if st.owners[j] > 0 {
		st.alive--
	}
	copy(st.owners[j:], st.owners[j+1:st.k])
	for i := 0; i < st.n; i++ {
		row := st.z[i*st.kcap : i*st.kcap+st.k]
		copy(row[j:], row[j+1:])
		row[st.k-1] = 0
	}
	st.k--
}

// recomputeResiduals sets R = X − ZA, ‖r_i‖² and the RSS from scratch (for BP-means++).
func (st *bpState) recomputeResiduals() {
	st.rss = 0
	for i := 0; i < st.n; i++ {
		r := st.residual(i)
		copy(r, st.xrow(i))
		for j, on := range st.zrow(i) {
			if on != 0 {
				floats.Sub(r, st.feature(j))
			}
		}
		nr := floats.Dot(r, r)
		st.rnorm[i] = nr
		st.rss += nr
	}
}

// bpObjective is the BP-means objective ‖X − ZA‖²_F + λ²K (MAD-Bayes eq. 6).
func bpObjective(rss, lambda2 float64, k int) float64 { return rss + lambda2*float64(k) }
