package pca

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestReferenceScalingByHand checks a 3 × 2 example worked by hand. Y = [[0,0],[2,0],
// [1,3]] has column means (1,1) and centred rows (−1,−1), (1,−1), (0,2), which are
// orthogonal columns: sample variances 1 and 3. So V = [e₂ e₁], the scores are the
// centred rows swapped and divided by √2, and the variances are 3 and 1.
func TestReferenceScalingByHand(t *testing.T) {
	r := 1 / math.Sqrt2
	wantScores := mat.NewDense(3, 2, []float64{-r, -r, -r, r, math.Sqrt2, 0})
	wantV := mat.NewDense(2, 2, []float64{0, 1, 1, 0})
	for _, pth := range allPaths {
		Y := mat.NewDense(3, 2, []float64{0, 0, 2, 0, 1, 3})
		m, X, err := Fit(Y, Options{Components: 5, path: pth})
		if err != nil {
			t.Fatalf("%v: %v", pth, err)
		}
		if m.D != 2 || m.N != 3 || m.P != 2 || m.Method != pth.String() {
			t.Fatalf("%v: N %d P %d D %d method %q", pth, m.N, m.P, m.D, m.Method)
		}
		if math.Abs(m.Scale-math.Sqrt2) > 1e-15 {
			t.Fatalf("%v: scale %v, want √2", pth, m.Scale)
		}
		for j, v := range m.Mean {
			if math.Abs(v-r) > 1e-15 {
				t.Fatalf("%v: mean[%d] = %v, want 1/√2", pth, j, v)
			}
		}
		if d := maxAbsDiff(X, wantScores); d > 1e-12 {
			t.Fatalf("%v: scores %v, want %v", pth, mat.Formatted(X), mat.Formatted(wantScores))
		}
		if d := maxAbsDiff(m.Components, wantV); d > 1e-12 {
			t.Fatalf("%v: components %v, want %v", pth, mat.Formatted(m.Components), mat.Formatted(wantV))
		}
		if math.Abs(m.Variance[0]-3) > 1e-12 || math.Abs(m.Variance[1]-1) > 1e-12 || math.Abs(m.TotalVariance-4) > 1e-12 {
			t.Fatalf("%v: variance %v total %v, want [3 1] and 4", pth, m.Variance, m.TotalVariance)
		}
		if got := m.ExplainedRatio(); math.Abs(got[0]-0.75) > 1e-12 || math.Abs(got[1]-0.25) > 1e-12 {
			t.Fatalf("%v: explained %v, want [0.75 0.25]", pth, got)
		}
	}
}

// TestSumOfSquaredScoresIsTotalVariance: with D = min(N−1, P) the scores keep all the
// variance, and the reference scaling makes it the sum of per-pixel sample variances.
func TestSumOfSquaredScoresIsTotalVariance(t *testing.T) {
	tests := []struct {
		name string
		n, p int
	}{
		{"wide", 12, 50},
		{"tall", 40, 9},
		{"square", 10, 10},
		{"two rows", 2, 7},
	}
	for _, tt := range tests {
		Y := uniform(tt.n, tt.p, 11)
		want := sampleVarianceSum(Y)
		for _, pth := range allPaths {
			m, X, err := Fit(Y, Options{Components: 1000, path: pth})
			if err != nil {
				t.Fatalf("%s %v: %v", tt.name, pth, err)
			}
			if m.D != min(tt.n-1, tt.p) {
				t.Fatalf("%s %v: D = %d, want %d", tt.name, pth, m.D, min(tt.n-1, tt.p))
			}
			var kept float64
			for _, v := range m.Variance {
				kept += v
			}
			for _, got := range []float64{sumSquares(X), kept, m.TotalVariance} {
				if math.Abs(got-want) > 1e-10*want {
					t.Fatalf("%s %v: got %v, want the sum of sample variances %v", tt.name, pth, got, want)
				}
			}
		}
	}
}

// TestInverseOfForwardIsExact: with D = min(N−1, P) every training row is rebuilt
// exactly, Transform reproduces the scores, and InverseDense agrees with Inverse.
func TestInverseOfForwardIsExact(t *testing.T) {
	tests := []struct {
		name string
		Y    *mat.Dense
	}{
		{"wide", uniform(15, 40, 2)},
		{"tall", uniform(30, 6, 3)},
		{"rank deficient", duplicateRows(uniform(6, 30, 4), 3)},
	}
	for _, tt := range tests {
		n, p := tt.Y.Dims()
		for _, pth := range allPaths {
			m, X, err := Fit(tt.Y, Options{Components: 100, path: pth, Workers: 3})
			if err != nil {
				t.Fatalf("%s %v: %v", tt.name, pth, err)
			}
			back := m.InverseDense(X)
			if d := maxAbsDiff(back, tt.Y); d > 1e-11 {
				t.Fatalf("%s %v: reconstruction off by %v", tt.name, pth, d)
			}
			dst := make([]float64, 0, p)
			for i := range n {
				row := m.Inverse(X.RawRowView(i), dst)
				if &row[0] != &dst[:1][0] {
					t.Fatalf("%s %v: Inverse did not reuse dst", tt.name, pth)
				}
				for j, v := range row {
					// One row and many run different OpenBLAS kernels: equal to rounding.
					if math.Abs(v-back.At(i, j)) > 1e-13*math.Max(1, math.Abs(v)) {
						t.Fatalf("%s %v: Inverse row %d pixel %d = %v, InverseDense %v", tt.name, pth, i, j, v, back.At(i, j))
					}
				}
				s := m.Transform(tt.Y.RawRowView(i), nil)
				for k, v := range s {
					if math.Abs(v-X.At(i, k)) > 1e-12 {
						t.Fatalf("%s %v: Transform row %d score %d = %v, Fit gave %v", tt.name, pth, i, k, v, X.At(i, k))
					}
				}
			}
		}
	}
}

// TestInverseThenTransformKeepsScores: Inverse maps onto the kept subspace and
// Transform reads the coordinates back, for any scores, also when D < rank.
func TestInverseThenTransformKeepsScores(t *testing.T) {
	Y := uniform(20, 60, 5)
	S := uniform(4, 7, 6)
	for _, pth := range allPaths {
		m, _, err := Fit(Y, Options{Components: 7, path: pth, Seed: 9})
		if err != nil {
			t.Fatalf("%v: %v", pth, err)
		}
		for i := range 4 {
			s := S.RawRowView(i)
			got := m.Transform(m.Inverse(s, nil), nil)
			for k := range s {
				if math.Abs(got[k]-s[k]) > 1e-12 {
					t.Fatalf("%v: score %d came back as %v, want %v", pth, k, got[k], s[k])
				}
			}
		}
	}
}

// duplicateRows returns Y with its first `extra` rows appended again, so the centred
// data have rank N−1−extra.
func duplicateRows(Y *mat.Dense, extra int) *mat.Dense {
	n, p := Y.Dims()
	out := mat.NewDense(n+extra, p, nil)
	out.Slice(0, n, 0, p).(*mat.Dense).Copy(Y)
	out.Slice(n, n+extra, 0, p).(*mat.Dense).Copy(Y.Slice(0, extra, 0, p))
	return out
}

// TestRankDeficientData: duplicated images leave components with no variance. They
// still get orthonormal directions (the Gram path cannot divide by σ ≈ 0 and completes
// the basis instead), zero variance and zero scores.
func TestRankDeficientData(t *testing.T) {
	Y := duplicateRows(uniform(8, 25, 7), 4) // N = 12, rank of the centred data 7
	for _, pth := range allPaths {
		m, X, err := Fit(Y, Options{Components: 100, path: pth})
		if err != nil {
			t.Fatalf("%v: %v", pth, err)
		}
		if m.D != 11 {
			t.Fatalf("%v: D = %d, want 11", pth, m.D)
		}
		checkOrthonormal(t, pth.String(), m.Components, 1e-12)
		for k := range m.D {
			col := mat.Col(nil, k, X)
			zero := m.Variance[k] == 0
			if zero != (k >= 7) {
				t.Fatalf("%v: variance %v: want exactly the last 4 zero", pth, m.Variance)
			}
			for _, v := range col {
				if zero && v != 0 {
					t.Fatalf("%v: component %d has zero variance but score %v", pth, k, v)
				}
			}
		}
	}
}

// TestComponentsOrthonormal checks VᵀV = I on every path and shape.
func TestComponentsOrthonormal(t *testing.T) {
	for _, shape := range [][2]int{{30, 200}, {200, 30}, {50, 50}} {
		Y := lowRank(shape[0], shape[1], 12, 0.05, 21)
		for _, pth := range allPaths {
			m, _, err := Fit(Y, Options{Components: 20, path: pth})
			if err != nil {
				t.Fatalf("%v %v: %v", shape, pth, err)
			}
			checkOrthonormal(t, pth.String(), m.Components, 1e-10)
		}
	}
}

// TestAgreesWithDirectSVD compares every path with a plain SVD of the centred, scaled
// matrix: the same variances, and the same components once signs follow the package's
// convention. Exact paths must match to rounding; the randomized one closely on an
// image-like spectrum.
func TestAgreesWithDirectSVD(t *testing.T) {
	tests := []struct {
		name string
		n, p int
	}{
		{"wide", 20, 60},
		{"tall", 60, 12},
	}
	const d = 8
	for _, tt := range tests {
		Y := lowRank(tt.n, tt.p, 10, 1e-3, 7)
		sv, V := directSVD(t, Y)
		for _, pth := range allPaths {
			tol := 1e-9
			if pth == pathRandomized {
				tol = 1e-6
			}
			m, X, err := Fit(Y, Options{Components: d, path: pth, Seed: 3})
			if err != nil {
				t.Fatalf("%s %v: %v", tt.name, pth, err)
			}
			for k := range d {
				if math.Abs(m.Variance[k]-sv[k]*sv[k]) > tol*sv[0]*sv[0] {
					t.Fatalf("%s %v: variance %d = %v, want %v", tt.name, pth, k, m.Variance[k], sv[k]*sv[k])
				}
			}
			if diff := maxAbsDiff(m.Components, V.Slice(0, tt.p, 0, d)); diff > 100*tol {
				t.Fatalf("%s %v: components differ from the direct SVD by %v", tt.name, pth, diff)
			}
			checkScoresAreProjections(t, tt.name+" "+pth.String(), Y, m, X)
		}
	}
}

// checkScoresAreProjections fails unless X = (Y/√(N−1) − m)V, the spec's definition.
func checkScoresAreProjections(t *testing.T, name string, Y *mat.Dense, m *Model, X *mat.Dense) {
	t.Helper()
	n, p := Y.Dims()
	yc := mat.NewDense(n, p, nil)
	for i := range n {
		for j := range p {
			yc.Set(i, j, Y.At(i, j)/m.Scale-m.Mean[j])
		}
	}
	var want mat.Dense
	want.Mul(yc, m.Components)
	if d := maxAbsDiff(X, &want); d > 1e-10 {
		t.Fatalf("%s: scores differ from (Y/√(N−1) − m)V by %v", name, d)
	}
}

// TestPathsAgree runs the three paths on the same matrices and compares everything.
func TestPathsAgree(t *testing.T) {
	for _, shape := range [][2]int{{40, 300}, {300, 40}} {
		Y := lowRank(shape[0], shape[1], 15, 1e-4, 31)
		var ref *Model
		var refX *mat.Dense
		for _, pth := range allPaths {
			m, X, err := Fit(Y, Options{Components: 10, path: pth, Seed: 1})
			if err != nil {
				t.Fatalf("%v %v: %v", shape, pth, err)
			}
			if ref == nil {
				ref, refX = m, X
				continue
			}
			if d := maxAbsDiff(X, refX); d > 1e-6 {
				t.Fatalf("%v: %v scores differ from %s by %v", shape, pth, ref.Method, d)
			}
			if d := maxAbsDiff(m.Components, ref.Components); d > 1e-6 {
				t.Fatalf("%v: %v components differ from %s by %v", shape, pth, ref.Method, d)
			}
			if math.Abs(m.TotalVariance-ref.TotalVariance) > 1e-10*ref.TotalVariance {
				t.Fatalf("%v: %v total variance %v, %s %v", shape, pth, m.TotalVariance, ref.Method, ref.TotalVariance)
			}
		}
	}
}

// TestDeterministic: the sign convention holds, and the result is bit-for-bit the same
// whatever the number of workers and on a repeat run with the same seed.
func TestDeterministic(t *testing.T) {
	Y := lowRank(30, 5000, 20, 0.01, 41) // several column blocks
	for _, pth := range allPaths {
		m1, X1, err := Fit(Y, Options{Components: 12, path: pth, Seed: 5, Workers: 1})
		if err != nil {
			t.Fatalf("%v: %v", pth, err)
		}
		for k := range m1.D {
			col := mat.Col(nil, k, m1.Components)
			best := 0
			for j, v := range col {
				if math.Abs(v) > math.Abs(col[best]) {
					best = j
				}
			}
			if col[best] <= 0 {
				t.Fatalf("%v: component %d's largest entry %v is not positive", pth, k, col[best])
			}
		}
		for _, workers := range []int{2, 3, 8} {
			m2, X2, err := Fit(Y, Options{Components: 12, path: pth, Seed: 5, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(X1, X2) || !mat.Equal(m1.Components, m2.Components) || m1.TotalVariance != m2.TotalVariance {
				t.Fatalf("%v: %d workers changed the result", pth, workers)
			}
			for j := range m1.Mean {
				if m1.Mean[j] != m2.Mean[j] {
					t.Fatalf("%v: %d workers changed the mean", pth, workers)
				}
			}
		}
	}
	// A different seed changes the randomized test matrix, not the (well-determined) answer.
	m1, _, _ := Fit(Y, Options{Components: 5, path: pathRandomized, Seed: 1})
	m2, _, _ := Fit(Y, Options{Components: 5, path: pathRandomized, Seed: 2})
	if d := maxAbsDiff(m1.Components, m2.Components); d > 1e-6 {
		t.Fatalf("seeds 1 and 2 give components %v apart", d)
	}
}

// TestStridedInput: a view into a larger matrix gives the same result as its copy.
func TestStridedInput(t *testing.T) {
	big := uniform(20, 90, 51)
	view := big.Slice(2, 17, 5, 80).(*mat.Dense)
	for _, pth := range allPaths {
		m1, X1, err1 := Fit(view, Options{Components: 6, path: pth})
		m2, X2, err2 := Fit(mat.DenseCopyOf(view), Options{Components: 6, path: pth})
		if err1 != nil || err2 != nil {
			t.Fatalf("%v: %v %v", pth, err1, err2)
		}
		if !mat.Equal(X1, X2) || !mat.Equal(m1.Components, m2.Components) {
			t.Fatalf("%v: a strided view gave a different result", pth)
		}
	}
}

// TestNoPCA: Components = 0 is the identity, with the same API.
func TestNoPCA(t *testing.T) {
	Y := uniform(4, 5, 1)
	m, X, err := Fit(Y, Options{Components: 0})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Identity || m.D != 5 || m.Method != "identity" || m.ExplainedRatio() != nil {
		t.Fatalf("identity model %+v", m)
	}
	if !mat.Equal(X, Y) {
		t.Fatal("scores must be the data as they are")
	}
	X.Set(0, 0, 42)
	if Y.At(0, 0) == 42 {
		t.Fatal("scores must not alias the data")
	}
	row := Y.RawRowView(2)
	for _, got := range [][]float64{m.Inverse(row, nil), m.Transform(row, nil), m.InverseDense(Y).RawRowView(2)} {
		for j := range row {
			if got[j] != row[j] {
				t.Fatalf("identity map changed the data: %v, want %v", got, row)
			}
		}
	}
}

// TestBadInput: every bad input is an error that names the problem, never a panic.
func TestBadInput(t *testing.T) {
	withValue := func(v float64) *mat.Dense {
		Y := uniform(4, 5, 1)
		Y.Set(2, 3, v)
		if v > 1 { // also in the next row, so that the column's sum is larger still
			Y.Set(3, 3, v)
		}
		return Y
	}
	tests := []struct {
		name string
		Y    *mat.Dense
		opt  Options
		want string
	}{
		{"nil", nil, Options{Components: 2}, "empty"},
		{"empty", &mat.Dense{}, Options{Components: 2}, "empty"},
		{"one row", mat.NewDense(1, 3, []float64{1, 2, 3}), Options{Components: 2}, "at least 2 rows"},
		{"negative components", uniform(4, 5, 1), Options{Components: -1}, "Components must be ≥ 0, got -1"},
		{"NaN", withValue(math.NaN()), Options{Components: 2}, "Y[2,3] is NaN"},
		{"Inf", withValue(math.Inf(-1)), Options{Components: 2}, "Y[2,3] is -Inf"},
		{"NaN without PCA", withValue(math.NaN()), Options{}, "Y[2,3] is NaN"},
		{"overflowing sums", withValue(math.MaxFloat64), Options{Components: 2}, "values are too large"},
		{"overflowing variance", withValue(1e200), Options{Components: 2}, "values are too large"},
		{"identical rows", mat.NewDense(3, 2, []float64{1, 2, 1, 2, 1, 2}), Options{Components: 2}, "no variance"},
	}
	for _, tt := range tests {
		for _, pth := range allPaths {
			tt.opt.path = pth
			m, X, err := Fit(tt.Y, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("%s %v: error %v, want one containing %q", tt.name, pth, err, tt.want)
			}
			if m != nil || X != nil {
				t.Fatalf("%s %v: results returned with an error", tt.name, pth)
			}
		}
	}
}

// TestShapeMismatchPanics: a score or pixel row of the wrong length is a programming
// error, reported like gonum's shape errors with a message that says what was expected.
func TestShapeMismatchPanics(t *testing.T) {
	m, _, err := Fit(uniform(5, 8, 1), Options{Components: 3})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		call func()
		want string
	}{
		{"Inverse", func() { m.Inverse(make([]float64, 4), nil) }, "want 3"},
		{"InverseDense", func() { m.InverseDense(mat.NewDense(2, 4, nil)) }, "want 3"},
		{"Transform", func() { m.Transform(make([]float64, 7), nil) }, "want 8"},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.Contains(s, tt.want) {
					t.Fatalf("%s: panic %v, want one containing %q", tt.name, r, tt.want)
				}
			}()
			tt.call()
		}()
	}
}

// TestMappedInverseIsTheMappedReconstruction: the model followed by a linear map (here,
// pixel pairs summed with weights 2 and −1) reconstructs what mapping each full
// reconstruction gives, for the data's scores and for new ones.
func TestMappedInverseIsTheMappedReconstruction(t *testing.T) {
	Y := uniform(12, 40, 5)
	m, X, err := Fit(Y, Options{Components: 5})
	if err != nil {
		t.Fatal(err)
	}
	pairs := func(v []float64, cols int) []float64 {
		out := make([]float64, len(v)/2)
		for q := 0; q < len(out)/cols; q++ {
			for j := 0; j < cols; j++ {
				out[q*cols+j] = 2*v[2*q*cols+j] - v[(2*q+1)*cols+j]
			}
		}
		return out
	}
	small := m.Mapped(pairs)
	if small.P != 20 || small.D != m.D {
		t.Fatalf("mapped model has P %d, D %d; want 20, %d", small.P, small.D, m.D)
	}
	X.Set(3, 2, 0.7) // a code no image has
	got := small.InverseDense(X)
	full := m.InverseDense(X)
	for i := range 12 {
		want := pairs(full.RawRowView(i), 1)
		for q, w := range want {
			if d := math.Abs(got.At(i, q) - w); d > 1e-12 {
				t.Fatalf("row %d value %d: %v, mapped reconstruction %v", i, q, got.At(i, q), w)
			}
		}
	}
}
