package algorithms

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ibpTetrisShapes are five non-overlapping tetromino-like 4-cell patterns on a 6×6 grid
// (Liu & Li §4): (row, column) cells.
var ibpTetrisShapes = [5][4][2]int{
	{{0, 0}, {0, 1}, {0, 2}, {0, 3}}, // I, top row
	{{1, 4}, {1, 5}, {2, 4}, {2, 5}}, // O
	{{2, 0}, {3, 0}, {4, 0}, {3, 1}}, // T, pointing right
	{{3, 3}, {4, 2}, {4, 3}, {4, 4}}, // T, pointing up
	{{4, 5}, {5, 5}, {5, 4}, {5, 3}}, // J
}

// ibpTetris returns the tetris data of Liu & Li §4: 100 grey 6×6 images
// x = Σ_j c_j f_j + N(0, 0.1²), c_j ~ Bernoulli(0.5), no PCA (100 × 36); the true
// patterns (5 × 36); and the true Z (100 × 5).
func ibpTetris(seed uint64) (X *mat.Dense, patterns [][]float64, Z *mat.Dense) {
	const n, side = 100, 6
	patterns = make([][]float64, len(ibpTetrisShapes))
	for j, cells := range ibpTetrisShapes {
		patterns[j] = make([]float64, side*side)
		for _, rc := range cells {
			patterns[j][rc[0]*side+rc[1]] = 1
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x7e7))
	X = mat.NewDense(n, side*side, nil)
	Z = mat.NewDense(n, len(patterns), nil)
	for i := 0; i < n; i++ {
		row := X.RawRowView(i)
		for j, f := range patterns {
			if rng.Float64() < 0.5 {
				Z.Set(i, j, 1)
				for p, v := range f {
					row[p] += v
				}
			}
		}
		for p := range row {
			row[p] += 0.1 * rng.NormFloat64()
		}
	}
	return X, patterns, Z
}

// ibpModeK is the K seen most often in a histogram.
func ibpModeK(h []int) int {
	best := 0
	for k, c := range h {
		if c > h[best] {
			best = k
		}
	}
	return best
}

func TestIBPTetris(t *testing.T) {
	X, patterns, _ := ibpTetris(1)
	res, err := IBPGibbs(context.Background(), X, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("K histogram %v, posterior means α %.3f σ_X %.4f σ_A %.4f, acceptance %.2f/%.2f, %.2fs",
		res.KHistogram, res.Alpha, res.SigmaX, res.SigmaA, res.Trace.AcceptX, res.Trace.AcceptA, res.Seconds)
	if k := ibpModeK(res.KHistogram); k != 5 {
		t.Fatalf("posterior mode of K = %d, want 5 (histogram %v)", k, res.KHistogram)
	}
	if res.SigmaX < 0.085 || res.SigmaX > 0.115 {
		t.Errorf("posterior mean σ_X = %.4f, want within [0.085, 0.115] (true 0.1)", res.SigmaX)
	}
	if res.K != 5 {
		t.Fatalf("final K = %d, want 5", res.K)
	}
	// Each true pattern must have its own learned feature within a small RMSE.
	used := make(map[int]bool)
	for j, f := range patterns {
		best, bestF := math.Inf(1), -1
		for g := 0; g < res.K; g++ {
			var ss float64
			for p, v := range res.A.RawRowView(g) {
				ss += (v - f[p]) * (v - f[p])
			}
			if rmse := math.Sqrt(ss / float64(len(f))); rmse < best {
				best, bestF = rmse, g
			}
		}
		if best > 0.05 || used[bestF] {
			t.Errorf("pattern %d: closest feature %d has RMSE %.3f (already matched: %v), want a feature of its own within 0.05",
				j, bestF, best, used[bestF])
		}
		used[bestF] = true
	}
	if res.Algorithm != "ibp" || res.Iterations != 1000 || len(res.Trace.K) != 1000 {
		t.Errorf("algorithm %q, iterations %d, trace length %d", res.Algorithm, res.Iterations, len(res.Trace.K))
	}
	if want := residualSS(X, res.Z, res.A); math.Abs(res.Objective-want) > 1e-9*want || res.BPObjective != res.Objective {
		t.Errorf("objective %v, BP objective %v, want ‖X − ZA‖² = %v for both (λ² = 0)", res.Objective, res.BPObjective, want)
	}
}

func TestIBPTabletop(t *testing.T) {
	X := tabletopScores(t)
	res, err := IBPGibbs(context.Background(), X, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Trace
	t.Logf("tabletop, 1000 sweeps, %.2fs: final K %d, K histogram (second half) %v", res.Seconds, res.K, res.KHistogram)
	t.Logf("posterior means: α %.3f, σ_X %.4f, σ_A %.4f; Metropolis acceptance σ_X %.2f, σ_A %.2f",
		res.Alpha, res.SigmaX, res.SigmaA, tr.AcceptX, tr.AcceptA)
	for s := 0; s < len(tr.K); s += 100 {
		t.Logf("sweep %4d: K %2d  α %.3f  σ_X %.4f  σ_A %.4f  log joint %.1f",
			s+1, tr.K[s], tr.Alpha[s], tr.SigmaX[s], tr.SigmaA[s], tr.LogJoint[s])
	}
	t.Logf("MAP log joint %.1f (K = %d), objective ‖X − ZA‖² = %.2f", res.MAPLogJoint, res.MAPZ.RawMatrix().Cols, res.Objective)
	if res.K < 1 || math.IsNaN(res.Objective) || res.SigmaX <= 0 {
		t.Errorf("degenerate result: K %d, objective %v, σ_X %v", res.K, res.Objective, res.SigmaX)
	}
}

// ibpTestChain is a chain on the tetris data started from the prior.
func ibpTestChain(seed uint64) *ibpChain {
	X, _, _ := ibpTetris(seed)
	n, d := X.Dims()
	rng := rand.New(rand.NewPCG(seed, 1))
	z, k := ibpDrawPrior(rng, n, 3)
	return newIBPChain(ibpDefaultConfig(), rng, X.RawMatrix().Data, n, d, z, k, 1, 0.3, 0.8)
}

// ibpCheckState compares the maintained M, H, m with fresh computations from Z.
func ibpCheckState(t *testing.T, c *ibpChain, tol float64) {
	t.Helper()
	k, kc, n, d := c.k, c.kc, c.n, c.d
	Z := mat.NewDense(n, max(k, 1), nil)
	for i := 0; i < n; i++ {
		for f := 0; f < k; f++ {
			v := c.z[i*kc+f]
			if v != 0 && v != 1 {
				t.Fatalf("z[%d][%d] = %v", i, f, v)
			}
			Z.Set(i, f, v)
		}
	}
	for f := 0; f < k; f++ {
		m := 0
		for i := 0; i < n; i++ {
			m += int(c.z[i*kc+f])
		}
		if m != c.m[f] || m == 0 {
			t.Fatalf("feature %d: m = %d, column sum %d", f, c.m[f], m)
		}
	}
	if k == 0 {
		return
	}
	Z = Z.Slice(0, n, 0, k).(*mat.Dense)
	var W, Minv mat.Dense
	W.Mul(Z.T(), Z)
	for f := 0; f < k; f++ {
		W.Set(f, f, W.At(f, f)+c.lambda())
	}
	if err := Minv.Inverse(&W); err != nil {
		t.Fatal(err)
	}
	var ZtX, H mat.Dense
	ZtX.Mul(Z.T(), mat.NewDense(n, d, c.x))
	H.Mul(&Minv, &ZtX)
	scale := mat.Norm(&Minv, math.Inf(1))
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			if diff := math.Abs(c.M[a*kc+b] - Minv.At(a, b)); diff > tol*scale {
				t.Fatalf("M[%d][%d] = %v, fresh inverse %v (diff %.3g, K = %d)", a, b, c.M[a*kc+b], Minv.At(a, b), diff, k)
			}
		}
	}
	hs := mat.Norm(&H, math.Inf(1))
	for a := 0; a < k; a++ {
		for j := 0; j < d; j++ {
			if diff := math.Abs(c.H[a*d+j] - H.At(a, j)); diff > tol*hs {
				t.Fatalf("H[%d][%d] = %v, fresh %v (diff %.3g)", a, j, c.H[a*d+j], H.At(a, j), diff)
			}
		}
	}
}

// TestIBPMaintainedInverse checks that M = (Z'Z + λI)⁻¹ and H = MZ'X stay exact through
// many rank-one updates (row removals and re-insertions, singleton removals, new
// features) without the per-sweep recompute.
func TestIBPMaintainedInverse(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		c := ibpTestChain(seed)
		ibpCheckState(t, c, 1e-12)
		for pass := 0; pass < 10; pass++ {
			if err := c.rows(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("seed %d: K = %d after 1000 row updates", seed, c.k)
		ibpCheckState(t, c, 1e-8)
	}
}

// TestIBPColumnMovesKeepState checks that after column moves Z'Z, Z'X and the cached
// log-likelihood still describe Z.
func TestIBPColumnMovesKeepState(t *testing.T) {
	c := ibpTestChain(4)
	for s := 0; s < 30; s++ {
		if err := c.sweep(context.Background(), s, true); err != nil {
			t.Fatal(err)
		}
		c.gram(-1)
		c.logLik, _ = c.logLikAt(c.sx, c.sa)
		c.columnMoves(200)
		g := append([]float64(nil), c.G...)
		b := append([]float64(nil), c.B[:c.k*c.d]...)
		ll := c.logLik
		c.gram(-1)
		for a := 0; a < c.k; a++ {
			for f := 0; f < c.k; f++ {
				if g[a*c.kc+f] != c.G[a*c.kc+f] {
					t.Fatalf("sweep %d: G[%d][%d] = %v after column moves, Z'Z has %v", s, a, f, g[a*c.kc+f], c.G[a*c.kc+f])
				}
			}
		}
		for j, v := range b {
			if math.Abs(v-c.B[j]) > 1e-9 {
				t.Fatalf("sweep %d: B[%d] = %v after column moves, Z'X has %v", s, j, v, c.B[j])
			}
		}
		if fresh, _ := c.logLikAt(c.sx, c.sa); math.Abs(fresh-ll) > 1e-7*math.Abs(fresh) {
			t.Fatalf("sweep %d: cached log-likelihood %v, fresh %v", s, ll, fresh)
		}
		c.invert(c.lambda())
		ibpCheckState(t, c, 1e-10)
	}
}

func TestIBPDeterministicAcrossWorkers(t *testing.T) {
	X, _, _ := ibpTetris(2)
	run := func(workers int) *Result {
		res, err := IBPGibbs(context.Background(), X, Options{Seed: 9, Sweeps: 60, Chains: 2, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		res.Seconds = 0
		return res
	}
	a, b := run(1), run(8)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("Workers 1 and 8 give different results: K %d vs %d, log joint %v vs %v", a.K, b.K, a.MAPLogJoint, b.MAPLogJoint)
	}
	if len(a.RestartObjectives) != 2 {
		t.Errorf("%d chain objectives, want 2", len(a.RestartObjectives))
	}
	c := run(1)
	if !reflect.DeepEqual(a, c) {
		t.Error("the same seed gives different results")
	}
}

func TestIBPCancel(t *testing.T) {
	X, _, _ := ibpTetris(3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := IBPGibbs(ctx, X, Options{Seed: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v, want context.Canceled", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var sweeps atomic.Int64
	opt := Options{Seed: 1, Sweeps: 100000, Progress: func(p Progress) {
		if p.Stage != "sweep" || p.Total != 100000 {
			t.Errorf("progress %+v, want stage sweep of 100000", p)
		}
		if sweeps.Add(1) == 3 {
			cancel()
		}
	}}
	if _, err := IBPGibbs(ctx, X, opt); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled mid-run: err = %v, want context.Canceled", err)
	}
	if n := sweeps.Load(); n != 3 {
		t.Errorf("%d sweeps reported after cancelling at the 3rd, want 3 (cancel is checked between rows)", n)
	}
}

func TestIBPProgress(t *testing.T) {
	X, _, _ := ibpTetris(3)
	var last, calls atomic.Int64
	_, err := IBPGibbs(context.Background(), X, Options{Seed: 1, Sweeps: 20, Chains: 3, Workers: 2,
		Progress: func(p Progress) {
			calls.Add(1)
			for {
				old := last.Load()
				if int64(p.Done) <= old || last.CompareAndSwap(old, int64(p.Done)) {
					break
				}
			}
			if p.Total != 60 || p.Stage != "sweep" {
				t.Errorf("progress %+v, want stage sweep of 60", p)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 60 || last.Load() != 60 {
		t.Errorf("%d progress calls, last Done %d, want 60 and 60", calls.Load(), last.Load())
	}
}

func TestIBPBadInput(t *testing.T) {
	X, _, _ := ibpTetris(1)
	nan := mat.DenseCopyOf(X)
	nan.Set(3, 4, math.NaN())
	for _, tc := range []struct {
		name string
		X    *mat.Dense
		opt  Options
		want string
	}{
		{"nil X", nil, Options{}, "X is empty"},
		{"empty X", &mat.Dense{}, Options{}, "X is empty"},
		{"NaN in X", nan, Options{}, "row 3, column 4"},
		{"negative sweeps", X, Options{Sweeps: -1}, "sweeps"},
		{"negative chains", X, Options{Chains: -2}, "chains"},
		{"negative workers", X, Options{Workers: -1}, "workers"},
		{"negative lambda2", X, Options{Lambda2: -1}, "lambda2"},
		{"negative alpha0", X, Options{Alpha0: -1}, "alpha0"},
		{"NaN sigmax0", X, Options{SigmaX0: math.NaN()}, "sigmax0"},
		{"infinite sigmaa0", X, Options{SigmaA0: math.Inf(1)}, "sigmaa0"},
		{"extreme sigma ratio", X, Options{SigmaX0: 1e-6, SigmaA0: 10}, "ratio"},
		{"unknown init", X, Options{Init: "kmeans"}, "init"},
		{"given without InitZ", X, Options{Init: "given"}, "InitZ"},
		{"InitZ rows", X, Options{InitZ: mat.NewDense(3, 2, nil)}, "initz has 3 rows"},
		{"InitZ not binary", X, Options{InitZ: mat.NewDense(100, 1, ibpFill(100, 0.5))}, "only 0 and 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := IBPGibbs(context.Background(), tc.X, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one mentioning %q", err, tc.want)
			}
			if res != nil {
				t.Error("a result with an error")
			}
		})
	}
}

func ibpFill(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func TestIBPInitModes(t *testing.T) {
	X, patterns, Ztrue := ibpTetris(5)
	for _, tc := range []struct {
		name  string
		opt   Options
		first int // K after the first sweep must be at least this
	}{
		{"prior", Options{Init: "prior"}, 0},
		{"single", Options{Init: "single"}, 1},
		{"given truth", Options{InitZ: Ztrue}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Seed, tc.opt.Sweeps = 2, 40
			res, err := IBPGibbs(context.Background(), X, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Trace.K[0] < tc.first || res.K < 1 {
				t.Errorf("K after sweep 1 = %d, final %d", res.Trace.K[0], res.K)
			}
		})
	}
	// From the true Z the chain stays at the truth.
	res, err := IBPGibbs(context.Background(), X, Options{InitZ: Ztrue, Seed: 3, Sweeps: 200})
	if err != nil {
		t.Fatal(err)
	}
	if ibpModeK(res.KHistogram) != len(patterns) {
		t.Errorf("started at the truth, K histogram %v", res.KHistogram)
	}
	// Zero rows with an empty InitZ column: the column is dropped.
	z := mat.DenseCopyOf(Ztrue.Grow(0, 1))
	if _, err := IBPGibbs(context.Background(), X, Options{InitZ: z, Seed: 3, Sweeps: 2}); err != nil {
		t.Errorf("InitZ with an empty column: %v", err)
	}
}

// TestIBPSampleAlpha checks α | Z ~ Gamma(1 + K, rate 1 + H_N) by its first two moments
// (a scale of 1 + H_N would give a mean (1+K)(1+H_N) instead of (1+K)/(1+H_N)).
func TestIBPSampleAlpha(t *testing.T) {
	c := ibpTestChain(1)
	const draws = 40000
	var sum, sum2 float64
	for range draws {
		c.sampleAlpha()
		sum += c.alpha
		sum2 += c.alpha * c.alpha
	}
	shape, rate := 1+float64(c.k), 1+c.hN
	mean, vr := sum/draws, sum2/draws-(sum/draws)*(sum/draws)
	wantMean, wantVar := shape/rate, shape/(rate*rate)
	if math.Abs(mean-wantMean) > 4*math.Sqrt(wantVar/draws) || math.Abs(vr/wantVar-1) > 0.05 {
		t.Errorf("α mean %.4f var %.5f, want Gamma(%v, rate %.3f): mean %.4f var %.5f", mean, vr, shape, rate, wantMean, wantVar)
	}
}

// TestIBPDrawPrior checks the IBP draw: E[K] = αH_N and E[Σm_k] = αN.
func TestIBPDrawPrior(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, alpha, draws = 7, 2.5, 20000
	var hn float64
	for j := 1; j <= n; j++ {
		hn += 1 / float64(j)
	}
	var sumK, sumOnes float64
	for range draws {
		z, k := ibpDrawPrior(rng, n, alpha)
		sumK += float64(k)
		for _, v := range z {
			sumOnes += v
		}
	}
	if got, want := sumK/draws, alpha*hn; math.Abs(got-want) > 4*math.Sqrt(want/draws) {
		t.Errorf("mean K %.3f, want αH_N = %.3f", got, want)
	}
	if got, want := sumOnes/draws, alpha*n; math.Abs(got-want) > 0.05*want {
		t.Errorf("mean number of ones %.3f, want αN = %.3f", got, want)
	}
}

// TestIBPLogPriorZ checks log P([Z] | α) on a hand-computed case: N = 2, two identical
// columns owned by both rows and one owned by row 1:
// α³/(2!·1!) · e^{−αH_2} · [(0!1!/2!)² · (1!0!/2!)].
func TestIBPLogPriorZ(t *testing.T) {
	x := []float64{1, 2}
	z := []float64{1, 1, 1, 1, 1, 0}
	c := newIBPChain(ibpDefaultConfig(), rand.New(rand.NewPCG(1, 1)), x, 2, 1, z, 3, 0.7, 1, 1)
	alpha := 0.7
	want := 3*math.Log(alpha) - math.Log(2) - alpha*1.5 + 3*math.Log(0.5)
	if got := c.logPriorZ(); math.Abs(got-want) > 1e-12 {
		t.Errorf("log P([Z]|α) = %v, want %v", got, want)
	}
}

func TestIBPLinalg(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const k, s, d = 6, 9, 4
	a := mat.NewDense(k, k, nil)
	for i := range k {
		for j := range k {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	var spd mat.Dense
	spd.Mul(a, a.T())
	flat := make([]float64, s*s)
	for i := range k {
		spd.Set(i, i, spd.At(i, i)+0.5)
		for j := range k {
			flat[i*s+j] = spd.At(i, j)
		}
	}
	logdet, ok := ibpCholesky(flat, k, s)
	if want := math.Log(mat.Det(&spd)); !ok || math.Abs(logdet-want) > 1e-10 {
		t.Errorf("log det %v, ok %v, want %v", logdet, ok, want)
	}
	inv := make([]float64, s*s)
	ibpCholInverse(flat, k, s, inv)
	var want mat.Dense
	if err := want.Inverse(&spd); err != nil {
		t.Fatal(err)
	}
	for i := range k {
		for j := range k {
			if math.Abs(inv[i*s+j]-want.At(i, j)) > 1e-9 {
				t.Fatalf("inverse[%d][%d] = %v, want %v", i, j, inv[i*s+j], want.At(i, j))
			}
		}
	}
	b := make([]float64, k*d)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	y := append([]float64(nil), b...)
	ibpForwardSolve(flat, k, s, y, d)
	ibpBackSolve(flat, k, s, y, d)
	var x mat.Dense
	x.Mul(&want, mat.NewDense(k, d, b))
	for i := range k {
		for j := range d {
			if math.Abs(y[i*d+j]-x.At(i, j)) > 1e-9 {
				t.Fatalf("solve[%d][%d] = %v, want %v", i, j, y[i*d+j], x.At(i, j))
			}
		}
	}
	flat[0] = -1
	if _, ok := ibpCholesky(flat, k, s); ok {
		t.Error("Cholesky of an indefinite matrix succeeded")
	}
}
