package ibp

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/features"
	"featurelab/algorithms/internal/chol"
	"featurelab/algorithms/internal/realdata"
	"featurelab/algorithms/learn"
	"featurelab/internal/accuracy"
)

// tetrisShapes are five non-overlapping tetromino-like 4-cell patterns on a 6×6 grid
// (Liu & Li §4): (row, column) cells.
var tetrisShapes = [5][4][2]int{
	{{0, 0}, {0, 1}, {0, 2}, {0, 3}}, // I, top row
	{{1, 4}, {1, 5}, {2, 4}, {2, 5}}, // O
	{{2, 0}, {3, 0}, {4, 0}, {3, 1}}, // T, pointing right
	{{3, 3}, {4, 2}, {4, 3}, {4, 4}}, // T, pointing up
	{{4, 5}, {5, 5}, {5, 4}, {5, 3}}, // J
}

// tetris returns the tetris data of Liu & Li §4: 100 grey 6×6 images
// x = Σ_j c_j f_j + N(0, 0.1²), c_j ~ Bernoulli(0.5), no PCA (100 × 36); the true
// patterns (5 × 36); and the true Z (100 × 5).
func tetris(seed uint64) (X *mat.Dense, patterns [][]float64, Z *mat.Dense) {
	const n, side = 100, 6
	patterns = make([][]float64, len(tetrisShapes))
	for j, cells := range tetrisShapes {
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

// modeK is the K seen most often in a histogram.
func modeK(h []int) int {
	best := 0
	for k, c := range h {
		if c > h[best] {
			best = k
		}
	}
	return best
}

// TestIBPStartsAtTheDataScale runs short single chains on the tetris data at a fifth of
// its scale (patterns of 0.2, noise 0.02). From σ = 1, far above that scale, the first
// sweeps drowned the features in noise and chains for seeds 2–4 ended with one feature
// (seed 1 with three); from the data's own scale every chain keeps at least three of
// the five patterns.
func TestIBPStartsAtTheDataScale(t *testing.T) {
	X, _, _ := tetris(2)
	X.Scale(0.2, X)
	for seed := uint64(1); seed <= 4; seed++ {
		res, err := Gibbs(context.Background(), X, learn.Options{Seed: seed, Sweeps: 200, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: final K = %d, σ_X %.4f", seed, res.K, res.SigmaX)
		if res.K < 3 {
			t.Errorf("seed %d: final K = %d, want at least 3 of the 5 patterns (K histogram %v)", seed, res.K, res.KHistogram)
		}
	}
}

// TestIBPTetris runs the default 4 chains (the registry's DefaultChains): a single chain
// reaches K = 5 for 17 of seeds 1–20 with blocks of 3 or 6 (12 one at a time), and seed
// 1 is one of the three that stay at K = 7 with blocks of 3.
func TestIBPTetris(t *testing.T) {
	accuracy.Check(t)
	X, patterns, _ := tetris(1)
	res, err := Gibbs(context.Background(), X, learn.Options{Seed: 1, Chains: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("K histogram %v, posterior means α %.3f σ_X %.4f σ_A %.4f, acceptance %.2f/%.2f, %.2fs",
		res.KHistogram, res.Alpha, res.SigmaX, res.SigmaA, res.Trace.AcceptX, res.Trace.AcceptA, res.Seconds)
	if k := modeK(res.KHistogram); k != 5 {
		t.Fatalf("posterior mode of K = %d, want 5 (histogram %v)", k, res.KHistogram)
	}
	if res.SigmaX < 0.085 || res.SigmaX > 0.115 {
		t.Errorf("posterior mean σ_X = %.4f, want within [0.085, 0.115] (true 0.1)", res.SigmaX)
	}
	if res.K != 5 {
		t.Fatalf("final K = %d, want 5", res.K)
	}
	// Objective is the least-squares fit of Z, comparable with the other learners';
	// the posterior-mean A fits a little worse, under its own name.
	ls, post := learn.LeastSquaresSS(X, res.Z), learn.ResidualSS(X, res.Z, res.A)
	t.Logf("objective %.4f (least squares), posterior-mean objective %.4f", res.Objective, res.PosteriorObjective)
	if math.Abs(res.Objective-ls) > 1e-9*ls || math.Abs(res.PosteriorObjective-post) > 1e-9*post || !(ls < post) {
		t.Errorf("objective %v (least squares %v), posterior objective %v (‖X − ZA‖² %v)", res.Objective, ls, res.PosteriorObjective, post)
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
	checkAcceptance(t, res.Trace)
	if res.Iterations != 1000 || len(res.Trace.K) != 1000 {
		t.Errorf("iterations %d, trace length %d", res.Iterations, len(res.Trace.K))
	}
	if res.BPObjective != res.Objective {
		t.Errorf("objective %v, BP objective %v, want the same (λ² = 0)", res.Objective, res.BPObjective)
	}
}

func TestIBPTabletop(t *testing.T) {
	accuracy.Check(t)
	X := realdata.Tabletop(t)
	res, err := Gibbs(context.Background(), X, learn.Options{Seed: 1})
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
	checkAcceptance(t, tr)
}

// checkAcceptance checks that the frozen Metropolis steps on log σ_X and log σ_A
// accept a reasonable fraction of proposals (the burn-in adaptation aims at 0.35): near
// 0 or 1 the chain would barely move.
func checkAcceptance(t *testing.T, tr *learn.IBPTrace) {
	t.Helper()
	for _, a := range []struct {
		name string
		rate float64
	}{{"σ_X", tr.AcceptX}, {"σ_A", tr.AcceptA}} {
		if a.rate < 0.2 || a.rate > 0.6 {
			t.Errorf("Metropolis acceptance of log %s = %.2f, want within [0.2, 0.6]", a.name, a.rate)
		}
	}
}

// testChain is a chain on the tetris data started from the prior.
func testChain(seed uint64) *chain {
	X, _, _ := tetris(seed)
	n, d := X.Dims()
	rng := rand.New(rand.NewPCG(seed, 1))
	z, k := drawPrior(rng, n, 3)
	return newChain(defaultConfig(), rng, X.RawMatrix().Data, n, d, z, k, 1, 0.3, 0.8)
}

// checkState compares the maintained M, H, m with fresh computations from Z.
func checkState(t *testing.T, c *chain, tol float64) {
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

// TestIBPSweepRecomputesInverse checks the periodic full recompute: drift planted in the
// maintained M and H (as rounding would build up over many rank-one updates) is gone
// after the next sweep, which ends by recomputing both from Z.
func TestIBPSweepRecomputesInverse(t *testing.T) {
	c := testChain(6)
	ctx := context.Background()
	for s := 0; s < 3; s++ {
		if err := c.sweep(ctx, s, true); err != nil {
			t.Fatal(err)
		}
	}
	for s := 3; s < 6; s++ {
		for a := 0; a < c.k; a++ {
			for b := 0; b < c.k; b++ {
				c.M[a*c.kc+b] *= 1 + 1e-6
			}
			for j := 0; j < c.d; j++ {
				c.H[a*c.d+j] *= 1 - 1e-6
			}
		}
		if err := c.sweep(ctx, s, false); err != nil {
			t.Fatal(err)
		}
		// A tolerance far below the planted 1e-6: only a fresh inverse meets it.
		checkState(t, c, 1e-11)
	}
}

// TestIBPMaintainedInverse checks that M = (Z'Z + λI)⁻¹ and H = MZ'X stay exact through
// many rank-one updates (row removals and re-insertions, singleton removals, new
// features) without the per-sweep recompute.
func TestIBPMaintainedInverse(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		c := testChain(seed)
		checkState(t, c, 1e-12)
		for pass := 0; pass < 10; pass++ {
			if err := c.rows(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("seed %d: K = %d after 1000 row updates", seed, c.k)
		checkState(t, c, 1e-8)
	}
}

// TestIBPColumnMovesKeepState checks that after column moves Z'Z, Z'X and the cached
// log-likelihood still describe Z.
func TestIBPColumnMovesKeepState(t *testing.T) {
	c := testChain(4)
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
		checkState(t, c, 1e-10)
	}
}

func TestIBPDeterministicAcrossWorkers(t *testing.T) {
	X, _, _ := tetris(2)
	run := func(workers int) *learn.Result {
		res, err := Gibbs(context.Background(), X, learn.Options{Seed: 9, Sweeps: 60, Chains: 2, Workers: workers})
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

func TestIBPProgress(t *testing.T) {
	X, _, _ := tetris(3)
	var last, calls atomic.Int64
	_, err := Gibbs(context.Background(), X, learn.Options{Seed: 1, Sweeps: 20, Chains: 3, Workers: 2,
		Progress: func(p learn.Progress) {
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
	X, _, _ := tetris(1)
	nan := mat.DenseCopyOf(X)
	nan.Set(3, 4, math.NaN())
	for _, tc := range []struct {
		name string
		X    *mat.Dense
		opt  learn.Options
		want string
	}{
		{"negative sweeps", X, learn.Options{Sweeps: -1}, "sweeps"},
		{"negative chains", X, learn.Options{Chains: -2}, "chains"},
		{"negative alpha0", X, learn.Options{Alpha0: -1}, "alpha0"},
		{"NaN sigmax0", X, learn.Options{SigmaX0: math.NaN()}, "sigmax0"},
		{"infinite sigmaa0", X, learn.Options{SigmaA0: math.Inf(1)}, "sigmaa0"},
		{"extreme sigma ratio", X, learn.Options{SigmaX0: 1e-6, SigmaA0: 10}, "ratio"},
		{"unknown init", X, learn.Options{Init: "kmeans"}, "init"},
		{"bpmeans init with a bad lambda2", X, learn.Options{Init: "bpmeans", StartFrom: features.BPMeans, Lambda2: math.Inf(1)}, "lambda2"},
		{"given without InitZ", X, learn.Options{Init: "given"}, "InitZ"},
		{"InitZ rows", X, learn.Options{InitZ: mat.NewDense(3, 2, nil)}, "initz has 3 rows"},
		{"InitZ not binary", X, learn.Options{InitZ: mat.NewDense(100, 1, fill(100, 0.5))}, "only 0 and 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Gibbs(context.Background(), tc.X, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one mentioning %q", err, tc.want)
			}
			if res != nil {
				t.Error("a result with an error")
			}
		})
	}
}

func fill(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func TestIBPInitModes(t *testing.T) {
	X, patterns, Ztrue := tetris(5)
	for _, tc := range []struct {
		name  string
		opt   learn.Options
		first int // K after the first sweep must be at least this
	}{
		{"prior", learn.Options{Init: "prior"}, 0},
		{"single", learn.Options{Init: "single"}, 1},
		{"bpmeans", learn.Options{Init: "bpmeans", StartFrom: features.BPMeans}, 3},
		{"given truth", learn.Options{InitZ: Ztrue}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Seed, tc.opt.Sweeps = 2, 40
			res, err := Gibbs(context.Background(), X, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Trace.K[0] < tc.first || res.K < 1 {
				t.Errorf("K after sweep 1 = %d, final %d", res.Trace.K[0], res.K)
			}
		})
	}
	// From the true Z the chain stays at the truth.
	res, err := Gibbs(context.Background(), X, learn.Options{InitZ: Ztrue, Seed: 3, Sweeps: 200})
	if err != nil {
		t.Fatal(err)
	}
	if modeK(res.KHistogram) != len(patterns) {
		t.Errorf("started at the truth, K histogram %v", res.KHistogram)
	}
	// Zero rows with an empty InitZ column: the column is dropped.
	z := mat.DenseCopyOf(Ztrue.Grow(0, 1))
	if _, err := Gibbs(context.Background(), X, learn.Options{InitZ: z, Seed: 3, Sweeps: 2}); err != nil {
		t.Errorf("InitZ with an empty column: %v", err)
	}
}

// TestIBPSampleAlpha checks α | Z ~ Gamma(1 + K, rate 1 + H_N) by its first two moments
// (a scale of 1 + H_N would give a mean (1+K)(1+H_N) instead of (1+K)/(1+H_N)).
func TestIBPSampleAlpha(t *testing.T) {
	c := testChain(1)
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
		z, k := drawPrior(rng, n, alpha)
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
	c := newChain(defaultConfig(), rand.New(rand.NewPCG(1, 1)), x, 2, 1, z, 3, 0.7, 1, 1)
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
	ok := chol.Factor(flat, k, s, 0)
	logdet := chol.LogDet(flat, k, s)
	if want := math.Log(mat.Det(&spd)); !ok || math.Abs(logdet-want) > 1e-10 {
		t.Errorf("log det %v, ok %v, want %v", logdet, ok, want)
	}
	inv := make([]float64, s*s)
	chol.Inverse(flat, k, s, inv)
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
	chol.ForwardSolve(flat, k, s, y, d, d)
	chol.BackSolve(flat, k, s, y, d, d)
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
	if chol.Factor(flat, k, s, 0) {
		t.Error("Cholesky of an indefinite matrix succeeded")
	}
}

// collapsedLogLik is log P(X | Z, σ_X, σ_A) by Liu & Li eq. (12), computed from
// scratch with a fresh inverse: the reference the maintained quantities are checked
// against.
func collapsedLogLik(t *testing.T, X, Z *mat.Dense, sx, sa float64) float64 {
	t.Helper()
	n, d := X.Dims()
	_, k := Z.Dims()
	lam := (sx / sa) * (sx / sa)
	var W mat.SymDense
	W.SymOuterK(1, Z.T())
	for f := 0; f < k; f++ {
		W.SetSym(f, f, W.At(f, f)+lam)
	}
	var ch mat.Cholesky
	if !ch.Factorize(&W) {
		t.Fatal("Z'Z + λI not positive definite")
	}
	var ztx, sol mat.Dense
	ztx.Mul(Z.T(), X)
	if err := ch.SolveTo(&sol, &ztx); err != nil {
		t.Fatal(err)
	}
	var quad float64
	for a := 0; a < k; a++ {
		for j := 0; j < d; j++ {
			quad += ztx.At(a, j) * sol.At(a, j)
		}
	}
	trXX := mat.Norm(X, 2)
	trXX *= trXX
	nf, df, kf := float64(n), float64(d), float64(k)
	return -0.5*nf*df*math.Log(2*math.Pi) - (nf-kf)*df*math.Log(sx) - kf*df*math.Log(sa) -
		0.5*df*ch.LogDet() - (trXX-quad)/(2*sx*sx)
}

// TestIBPKNewMatchesRecursion checks the log posterior of K_new (knewLogPost) against
// Liu & Li's recursive update (App. B.2, eqs. 30–31: append e_i columns one at a time,
// updating μ = 1 + λ − γ_ii and γ_·i) and against the full collapsed likelihood of
// Z with j columns e_i appended, plus log Poisson(j; α/N), for j = 0..4.
func TestIBPKNewMatchesRecursion(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		c := testChain(seed)
		for s := 0; s < 5; s++ {
			if err := c.sweep(context.Background(), s, true); err != nil {
				t.Fatal(err)
			}
		}
		n, d, k := c.n, c.d, c.k
		// A row that owns no singleton, so that Z is the Z of knewLogPost's baseline.
		row := -1
		for i := 0; i < n && row < 0; i++ {
			row = i
			for f := 0; f < k; f++ {
				if c.z[i*c.kc+f] != 0 && c.m[f] == 1 {
					row = -1
				}
			}
		}
		if row < 0 || k == 0 {
			t.Fatalf("seed %d: no row without singletons (K = %d)", seed, k)
		}
		lam := c.lambda()
		X := mat.NewDense(n, d, c.x)
		Z := mat.NewDense(n, k, c.copyZ(nil))

		// The sampler's weights, from the leave-row-out statistics it uses.
		sIn := c.rowStats(row)
		sOut := sIn / (1 - sIn)
		var r float64
		for _, v := range c.e {
			r += (v / (1 - sIn)) * (v / (1 - sIn))
		}
		c.knewLogPost(sOut, r, lam)
		got := append([]float64(nil), c.logw...)

		// Liu & Li eqs. (30)–(31), with Γ = Z W⁻¹ Z' from a fresh inverse.
		var W, Winv mat.Dense
		W.Mul(Z.T(), Z)
		for f := 0; f < k; f++ {
			W.Set(f, f, W.At(f, f)+lam)
		}
		if err := Winv.Inverse(&W); err != nil {
			t.Fatal(err)
		}
		var zw mat.Dense
		zw.Mul(Z, &Winv)
		gamma := make([]float64, n) // γ_·i = Z W⁻¹ z_i
		for a := 0; a < n; a++ {
			gamma[a] = mat.Dot(zw.RowView(a), Z.RowView(row))
		}
		lpois := func(j int) float64 {
			mu := c.alpha / float64(n)
			lf, _ := math.Lgamma(float64(j + 1))
			return float64(j)*math.Log(mu) - mu - lf
		}
		rec := []float64{0}
		for j := 0; j < len(got)-1; j++ {
			mu := 1 + lam - gamma[row]
			g := append([]float64(nil), gamma...)
			g[row]--
			var q float64 // ‖X'(γ − e_i)‖²
			for p := 0; p < d; p++ {
				v := mat.Dot(X.ColView(p), mat.NewVecDense(n, g))
				q += v * v
			}
			step := float64(d)*math.Log(c.sx/c.sa) - 0.5*float64(d)*math.Log(mu) +
				q/(2*c.sx*c.sx*mu) + lpois(j+1) - lpois(j)
			rec = append(rec, rec[j]+step)
			gii := gamma[row]
			for a := range gamma {
				gamma[a] += (gii - 1) * g[a] / mu
			}
		}

		// The full collapsed likelihood of Z with j columns e_i appended.
		base := collapsedLogLik(t, X, Z, c.sx, c.sa) + lpois(0)
		for j := range got {
			zp := mat.NewDense(n, k+j, nil)
			zp.Slice(0, n, 0, k).(*mat.Dense).Copy(Z)
			for f := k; f < k+j; f++ {
				zp.Set(row, f, 1)
			}
			full := collapsedLogLik(t, X, zp, c.sx, c.sa) + lpois(j) - base
			mine := got[j] - got[0]
			t.Logf("seed %d row %d K %d: K_new = %d: sampler %.6f, recursion %.6f, full %.6f", seed, row, k, j, mine, rec[j], full)
			if math.Abs(mine-full) > 1e-6*(1+math.Abs(full)) || math.Abs(rec[j]-full) > 1e-6*(1+math.Abs(full)) {
				t.Errorf("seed %d, K_new = %d: log weight %v (sampler), %v (recursion), want %v (full likelihood)", seed, j, mine, rec[j], full)
			}
		}
	}
}

// TestIBPBPMeansStart checks that Init "bpmeans" starts every chain from the Z of a
// BP-means run with the run's seed and λ².
func TestIBPBPMeansStart(t *testing.T) {
	X, _, _ := tetris(5)
	opt := learn.Options{Init: "bpmeans", StartFrom: features.BPMeans, Lambda2: 2, Seed: 4}
	st, err := settingsFrom(X, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := bpmeansStart(context.Background(), X, opt, &st); err != nil {
		t.Fatal(err)
	}
	bp, err := features.BPMeans(context.Background(), X, learn.Options{Lambda2: 2, Restarts: bpmeansRestarts, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if st.init != "given" || st.k0 != bp.K || bp.K == 0 || !reflect.DeepEqual(st.z0, bp.Z.RawMatrix().Data) {
		t.Errorf("start: init %q, K %d, want the BP-means Z (K = %d)", st.init, st.k0, bp.K)
	}
}

// TestIBPNumericalFailureIsAnError breaks a chain's σ_X (NaN, which no proposal can reach
// but a corrupt state could) and checks that the sweep stops with an error that names
// what failed, where it used to go on with a log-likelihood of 0 and another ridge.
func TestIBPNumericalFailureIsAnError(t *testing.T) {
	c := testChain(5)
	if c.err != nil {
		t.Fatal(c.err)
	}
	if err := c.sweep(context.Background(), 0, true); err != nil {
		t.Fatalf("a healthy sweep: %v", err)
	}
	c.sx = math.NaN()
	err := c.sweep(context.Background(), 1, true)
	if err == nil || !strings.Contains(err.Error(), "IBP sampler: the likelihood cannot be computed at K = ") {
		t.Fatalf("err = %v, want the likelihood failure", err)
	}
	if again := c.sweep(context.Background(), 2, true); again != err {
		t.Errorf("the next sweep went on: %v", again)
	}
}

func TestMergeDuplicates(t *testing.T) {
	// Features 0 and 2 are owned by rows {0, 2}; feature 1 by row 1; feature 3 by all.
	z := []float64{
		1, 0, 1, 1,
		0, 1, 0, 1,
		1, 0, 1, 1,
	}
	a := []float64{1, 2, 10, 20, 100, 200, 1000, 2000}
	z2, a2, k := mergeDuplicates(z, a, 3, 4, 2)
	if k != 3 {
		t.Fatalf("K = %d, want 3", k)
	}
	if want := []float64{1, 0, 1, 0, 1, 1, 1, 0, 1}; !slices.Equal(z2, want) {
		t.Errorf("Z = %v, want %v", z2, want)
	}
	if want := []float64{101, 202, 10, 20, 1000, 2000}; !slices.Equal(a2, want) {
		t.Errorf("A = %v, want %v (the twins' rows summed)", a2, want)
	}
	// ZA is unchanged row by row.
	for i := 0; i < 3; i++ {
		for j := 0; j < 2; j++ {
			var before, after float64
			for f := 0; f < 4; f++ {
				before += z[i*4+f] * a[f*2+j]
			}
			for f := 0; f < 3; f++ {
				after += z2[i*3+f] * a2[f*2+j]
			}
			if before != after {
				t.Errorf("(ZA)[%d,%d] = %v, was %v", i, j, after, before)
			}
		}
	}
	if _, _, again := mergeDuplicates(z2, a2, 3, 3, 2); again != 3 {
		t.Errorf("merging the merged result gives K = %d", again)
	}
	distinct := []float64{1, 0, 0, 1}
	if z3, _, k := mergeDuplicates(distinct, []float64{1, 2}, 2, 2, 1); k != 2 || &z3[0] != &distinct[0] {
		t.Error("distinct features were copied or merged")
	}
}

// TestIBPTiedAtExtremePrices: a tied price so high that α is 0 (log α = −∞) on data of
// scale 1e-4 leaves no feature, and every sweep's log joint is a number or −∞, never
// NaN (0 · log α once was).
func TestIBPTiedAtExtremePrices(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	X := mat.NewDense(30, 4, nil)
	for i := range 30 {
		for j := range 4 {
			X.Set(i, j, 1e-4*rng.NormFloat64())
		}
	}
	for _, lam := range []float64{1e-300, 1.7e302} {
		res, err := Gibbs(context.Background(), X, learn.Options{Sweeps: 40, Seed: 1, AlphaPrior: learn.AlphaTied, Lambda2: lam})
		if err != nil {
			t.Fatalf("λ² = %g: %v", lam, err)
		}
		for s, lj := range res.Trace.LogJoint {
			if math.IsNaN(lj) {
				t.Fatalf("λ² = %g: log joint NaN at sweep %d", lam, s)
			}
		}
		if math.IsNaN(res.LogAlpha) || math.IsNaN(res.SigmaX) {
			t.Errorf("λ² = %g: log α %v, σ_X %v", lam, res.LogAlpha, res.SigmaX)
		}
	}
}
