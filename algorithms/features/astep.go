package features

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/internal/chol"
)

// errSingular reports a Z whose Gram matrix Z'Z cannot be inverted: a feature owned by no
// row, or two features owned by the same rows. Learners merge or drop such features first.
var errSingular = errors.New("Z'Z is singular")

// aStepPivotTol is the relative size below which a Cholesky pivot of Z'Z counts as zero.
// For 0/1 matrices Z'Z has integer entries: a dependent column leaves a pivot at rounding
// level (~1e-16·N) and an independent one a pivot of order 1/N or more.
const aStepPivotTol = 1e-10

// aStepWork is the reusable scratch of aStep for one K; it keeps the A-step of a hot
// restart loop free of allocations.
type aStepWork struct {
	k, d int
	gram []float64 // K×K: Z'Z (lower triangle), then its Cholesky factor L
	ztx  []float64 // K×D: Z'X
}

func newAStepWork(k, d int) *aStepWork {
	return &aStepWork{k: k, d: d, gram: make([]float64, k*k), ztx: make([]float64, k*d)}
}

// LeastSquaresA is A = (Z'Z)⁻¹Z'X, the least-squares features of X (N×D) for the 0/1
// allocation Z (N×K), as the learners' A-step computes them; false when Z'Z is singular
// (a feature owned by none of these rows, or one that is a combination of others).
func LeastSquaresA(Z, X *mat.Dense) (*mat.Dense, bool) {
	_, k := Z.Dims()
	_, d := X.Dims()
	A := mat.NewDense(k, d, nil)
	if aStep(A, Z, X, nil) != nil {
		return nil, false
	}
	return A, true
}

// aStep sets A = (Z'Z)⁻¹Z'X, the least-squares features for a fixed allocation (MAD-Bayes
// Alg. 1, A-step), by a Cholesky solve. Z is N×K with 0/1 entries, X is N×D, A is K×D.
// It returns errSingular when a pivot of Z'Z vanishes (relative to its diagonal entry).
// Z'X is accumulated row by row, skipping zero entries of Z, so it costs N·D per ownership.
func aStep(A, Z, X *mat.Dense, ws *aStepWork) error {
	n, k := Z.Dims()
	_, d := X.Dims()
	if ws == nil || ws.k != k || ws.d != d {
		ws = newAStepWork(k, d)
	}
	g, ztx := ws.gram, ws.ztx
	clear(g)
	clear(ztx)
	for i := 0; i < n; i++ {
		z := Z.RawRowView(i)
		x := X.RawRowView(i)
		for j, zj := range z {
			if zj == 0 {
				continue
			}
			floats.AddScaled(ztx[j*d:j*d+d], zj, x)
			for t := j; t < k; t++ {
				g[t*k+j] += zj * z[t] // lower triangle, as chol.Factor reads it
			}
		}
	}
	if !chol.Factor(g, k, k, aStepPivotTol) {
		return errSingular
	}
	a := A.RawMatrix()
	for i := 0; i < k; i++ {
		copy(a.Data[i*a.Stride:i*a.Stride+d], ztx[i*d:i*d+d])
	}
	chol.Solve(g, k, k, a.Data, a.Stride, d)
	return nil
}

// bpPivotTol is the relative size below which a Cholesky pivot of Z'Z counts as zero. Z is
// 0/1, so Z'Z holds small integers and a dependent column leaves a pivot of rounding size
// (~1e-15·Z'Z_jj), while an independent one leaves at least ~1/N of it.
const bpPivotTol = 1e-9

// solveA removes the redundant features and then sets A = (Z'Z)⁻¹Z'X (MAD-Bayes Alg. 1,
// step 2) and the RSS. It returns the number of features removed.
//
// A feature is redundant when its column of Z is a combination of the columns before it.
// The paper names the two cases that make Z'Z singular — a feature owned by nobody, and two
// features owned by the same rows, which it merges into one whose mean is their sum — but
// a column can also be the sum of others (a base owned by all next to a feature and its
// complement). All three are found alike: a Cholesky factorisation of Z'Z that skips a
// column whose pivot vanishes. Dropping such a column leaves the column space of Z, and
// so the least-squares fit, unchanged, while K falls by one: the BP-means objective drops
// by λ² per feature removed. For two equal columns, dropping the second and refitting is
// exactly the paper's merge. The kept factor stays in st.chol for the collapsed learner.
func (st *bpState) solveA() int {
	st.compact()
	k, kc, d := st.k, st.kcap, st.d
	g := st.gram
	for j := 0; j < k; j++ {
		clear(g[j*kc : j*kc+k])
	}
	on := st.on
	for i := 0; i < st.n; i++ {
		m := 0
		for j, v := range st.zrow(i) {
			if v != 0 {
				on[m] = j
				m++
			}
		}
		for p := 0; p < m; p++ {
			row := g[on[p]*kc:]
			for q := 0; q < m; q++ {
				row[on[q]]++
			}
		}
	}

	// Left-looking Cholesky of Z'Z over the features in order; L's row p belongs to the
	// p-th kept feature keep[p].
	L := st.chol
	kept, removed := 0, 0
	for j := 0; j < k; j++ {
		row := L[kept*kc : kept*kc+kept+1]
		gj := g[j*kc:]
		piv := gj[j]
		for p := 0; p < kept; p++ {
			lp := L[p*kc : p*kc+p+1]
			s := gj[st.keep[p]] - floats.Dot(row[:p], lp[:p])
			row[p] = s / lp[p]
			piv -= row[p] * row[p]
		}
		if piv > bpPivotTol*gj[j] {
			row[kept] = math.Sqrt(piv)
			st.keep[kept] = j
			kept++
			continue
		}
		st.owners[j] = 0 // compact below drops it with its column of Z
		removed++
	}
	if removed > 0 {
		st.compact()
	}
	k = st.k

	// S = Z'X, a sum of the rows each feature owns; then A solves LL'A = S in place.
	s := st.s[:k*d]
	clear(s)
	for i := 0; i < st.n; i++ {
		x := st.xrow(i)
		for j, v := range st.zrow(i) {
			if v != 0 {
				floats.Add(s[j*d:(j+1)*d], x)
			}
		}
	}
	// Forward: L Y = S. The fitted sum of squares is tr(S'(Z'Z)⁻¹S) = ‖Y‖², so the RSS
	// of the least-squares fit is ‖X‖² − ‖Y‖², without forming X − ZA.
	fit := 0.0
	for p := 0; p < k; p++ {
		yp := s[p*d : (p+1)*d]
		lp := L[p*kc:]
		for q := 0; q < p; q++ {
			floats.AddScaled(yp, -lp[q], s[q*d:(q+1)*d])
		}
		floats.Scale(1/lp[p], yp)
		fit += floats.Dot(yp, yp)
	}
	st.rss = max(st.xss-fit, 0)
	for p := k - 1; p >= 0; p-- { // backward: L'A = Y
		ap := s[p*d : (p+1)*d]
		for q := p + 1; q < k; q++ {
			floats.AddScaled(ap, -L[q*kc+p], s[q*d:(q+1)*d])
		}
		floats.Scale(1/L[p*kc+p], ap)
	}
	copy(st.a, s)
	for j := 0; j < k; j++ {
		f := st.feature(j)
		st.anorm[j] = floats.Dot(f, f)
	}
	return removed
}

// bpCholInverse sets M = (LL')⁻¹ from the lower-triangular k×k factor L; both have stride
// kc. work needs k·kc entries. It costs O(k³), once per full recompute.
func bpCholInverse(M, L []float64, k, kc int, work []float64) {
	// W = L⁻¹ (lower triangular), column by column by forward substitution.
	W := work
	for c := 0; c < k; c++ {
		for p := 0; p < k; p++ {
			if p < c {
				W[p*kc+c] = 0
				continue
			}
			var s float64
			if p == c {
				s = 1
			}
			lp := L[p*kc:]
			for q := c; q < p; q++ {
				s -= lp[q] * W[q*kc+c]
			}
			W[p*kc+c] = s / lp[p]
		}
	}
	// M = W'W.
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			var s float64
			for p := b; p < k; p++ {
				s += W[p*kc+a] * W[p*kc+b]
			}
			M[a*kc+b] = s
			M[b*kc+a] = s
		}
	}
}
