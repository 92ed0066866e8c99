package features

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/internal/realdata"
	"featurelab/algorithms/learn"
	"featurelab/internal/accuracy"
)

// kfSynthetic returns X = ZA + noise for a random binary Z (N×K, all columns distinct,
// each owned by at least minOwners rows, no column all ones) and random features A (K×D)
// with entries of size ~3, so features are far apart next to the noise.
func kfSynthetic(rng *rand.Rand, n, k, d, minOwners int, noise float64) (X, Z, A *mat.Dense) {
	Z = mat.NewDense(n, k, nil)
	for {
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				Z.Set(i, j, float64(rng.IntN(2)))
			}
		}
		if kfColumnsOK(Z, minOwners) {
			break
		}
	}
	A = mat.NewDense(k, d, nil)
	for j := 0; j < k; j++ {
		for c := 0; c < d; c++ {
			A.Set(j, c, 3*rng.NormFloat64())
		}
	}
	X = mat.NewDense(n, d, nil)
	X.Mul(Z, A)
	for i := 0; i < n; i++ {
		for c := 0; c < d; c++ {
			X.Set(i, c, X.At(i, c)+noise*rng.NormFloat64())
		}
	}
	return X, Z, A
}

func kfColumnsOK(Z *mat.Dense, minOwners int) bool {
	n, k := Z.Dims()
	cols := make(map[string]bool)
	for j := 0; j < k; j++ {
		var key strings.Builder
		owners := 0
		for i := 0; i < n; i++ {
			if Z.At(i, j) == 1 {
				key.WriteByte('1')
				owners++
			} else {
				key.WriteByte('0')
			}
		}
		if owners < minOwners || owners == n || cols[key.String()] {
			return false
		}
		cols[key.String()] = true
	}
	return true
}

// kfColumnMatch returns, for the true column j of Z, the largest number of rows on which
// some column of the learned Zhat, or its complement, agrees with it.
func kfColumnMatch(Z, Zhat *mat.Dense, j int) int {
	n, _ := Z.Dims()
	_, kh := Zhat.Dims()
	best := 0
	for h := 0; h < kh; h++ {
		same := 0
		for i := 0; i < n; i++ {
			if Z.At(i, j) == Zhat.At(i, h) {
				same++
			}
		}
		best = max(best, same, n-same)
	}
	return best
}

func kfCheckResult(t *testing.T, res *learn.Result, X *mat.Dense) {
	t.Helper()
	n, d := X.Dims()
	if r, c := res.Z.Dims(); r != n || c != res.K {
		t.Fatalf("Z is %d×%d, want %d×%d", r, c, n, res.K)
	}
	if r, c := res.A.Dims(); r != res.K || c != d {
		t.Fatalf("A is %d×%d, want %d×%d", r, c, res.K, d)
	}
	for _, v := range res.Z.RawMatrix().Data {
		if v != 0 && v != 1 {
			t.Fatalf("Z has entry %v", v)
		}
	}
	for _, v := range res.A.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("A has entry %v", v)
		}
	}
	if math.IsNaN(res.Objective) || res.Objective < 0 {
		t.Fatalf("objective %v", res.Objective)
	}
	if rss := learn.ResidualSS(X, res.Z, res.A); math.Abs(rss-res.Objective) > 1e-9*(1+rss) {
		t.Fatalf("Objective %v, but ‖X − ZA‖² = %v", res.Objective, rss)
	}
	if want := res.Objective + res.Lambda2*float64(res.K); math.Abs(res.BPObjective-want) > 1e-9*(1+want) {
		t.Fatalf("BPObjective %v, want %v", res.BPObjective, want)
	}
}

// TestKFeaturesDice: the reference dice pictures are sums of 4 pip patterns, so K = 4
// without PCA fits them exactly.
func TestKFeaturesDice(t *testing.T) {
	X := realdata.DiceRaw(t)
	res, err := KFeatures(context.Background(), X, learn.Options{K: 4, Restarts: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	kfCheckResult(t, res, X)
	if res.K != 4 || math.Abs(res.Objective) > 1e-9 {
		t.Fatalf("dice K=4: objective %g with %d features, want 0 with 4", res.Objective, res.K)
	}
	if len(res.RestartObjectives) != 50 {
		t.Fatalf("%d restart objectives", len(res.RestartObjectives))
	}
}

// kfTabletopBest are the best known K-features objectives on the tabletop photos (PCA-100
// scores in the reference scaling), K = 1…8.
var kfTabletopBest = []float64{615.887, 423.206, 295.267, 205.797, 161.245, 151.515, 148.771, 143.5}

// TestKFeaturesTabletopBestKnown: 1000 restarts reach the best known objectives for every
// K = 1…8.
func TestKFeaturesTabletopBestKnown(t *testing.T) {
	accuracy.Check(t)
	X := realdata.Tabletop(t)
	for k := 1; k <= len(kfTabletopBest); k++ {
		res, err := KFeatures(context.Background(), X, learn.Options{K: k, Restarts: 1000, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := kfTabletopBest[k-1]
		t.Logf("K=%d: objective %.3f (best known %.3f), %d iterations", k, res.Objective, kfTabletopBest[k-1], res.Iterations)
		if res.K != k || res.Objective > want+1e-3 {
			t.Errorf("K=%d: objective %.4f with %d features, want ≤ %.3f", k, res.Objective, res.K, want)
		}
	}
}

// TestKFeaturesSyntheticRecovery: with well separated features and tiny noise K-features
// finds the generating allocation (up to the order of features and complements). Random
// codes over 5 features are a hard case for K-features' local search — on such data only
// 0.5–4% of single restarts reach the exact fit, the others stop in local minima where a
// learned feature mixes true ones — hence the 1000 restarts.
func TestKFeaturesSyntheticRecovery(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n, k, d = 100, 5, 20
	X, Z, _ := kfSynthetic(rng, n, k, d, 10, 1e-3)
	res, err := KFeatures(context.Background(), X, learn.Options{K: k, Restarts: 1000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	kfCheckResult(t, res, X)
	for j := 0; j < k; j++ {
		if m := kfColumnMatch(Z, res.Z, j); m < n*98/100 {
			t.Errorf("true feature %d matches a learned feature on %d of %d rows", j, m, n)
		}
	}
	// Only the noise is left: (N − K)·D·σ² ≈ 1.9e-3.
	if res.Objective > 3e-3 {
		t.Errorf("objective %g, want the noise level", res.Objective)
	}
}

// TestKFeaturesObjectiveNeverRises follows single restarts half-step by half-step: the
// Z-step and the A-step (re-seeding included) may only lower ‖X − ZA‖². The cases cover
// the exact Z-step, the K > 16 flips, and data that makes features degenerate.
func TestKFeaturesObjectiveNeverRises(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	noisy, _, _ := kfSynthetic(rng, 60, 6, 8, 5, 2)
	dup := mat.NewDense(12, 3, nil) // three distinct rows, each four times
	for i := 0; i < 12; i++ {
		dup.SetRow(i, []float64{float64(i % 3), float64((i % 3) * (i % 3)), 1})
	}
	cases := []struct {
		name     string
		X        *mat.Dense
		k        int
		restarts int
	}{
		{"exact K=6", noisy, 6, 20},
		{"exact K=10", noisy, 10, 4},
		{"blocks K=12", noisy, 12, 4},
		{"blocks K=20", noisy, 20, 20},
		{"duplicate rows K=5", dup, 5, 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newKFProblem(c.X)
			var walk *grayWalk
			if c.k <= kfExactK {
				walk = newGrayWalk(c.k)
			}
			w := newKFWork(p, c.k, walk, 1000)
			var prev float64
			steps := 0
			w.trace = func(iter int, afterZ, afterA float64) {
				tol := 1e-9 * (1 + prev)
				if iter > 0 && (afterZ > prev+tol || afterA > afterZ+tol) {
					t.Fatalf("iteration %d: objective %.12g → Z-step %.12g → A-step %.12g", iter, prev, afterZ, afterA)
				}
				if math.IsNaN(afterA) {
					t.Fatalf("iteration %d: NaN objective", iter)
				}
				prev = afterA
				steps++
			}
			for r := 0; r < c.restarts; r++ {
				obj, _, err := w.run(context.Background(), r, learn.RestartRNG(9, r))
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(obj-prev) > 1e-9*(1+prev) {
					t.Fatalf("restart %d returned %.12g, last traced %.12g", r, obj, prev)
				}
			}
			if steps == 0 {
				t.Fatal("trace never called")
			}
		})
	}
}

// TestKFeaturesWorkersDeterministic: the result depends on the seed, not on the number of
// workers.
func TestKFeaturesWorkersDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	X, _, _ := kfSynthetic(rng, 80, 5, 10, 5, 1.5)
	run := func(workers int, seed uint64) *learn.Result {
		res, err := KFeatures(context.Background(), X, learn.Options{K: 6, Restarts: 40, Seed: seed, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	one, eight := run(1, 7), run(8, 7)
	if !mat.Equal(one.Z, eight.Z) || !mat.Equal(one.A, eight.A) || one.Objective != eight.Objective {
		t.Fatalf("Workers 1 and 8 differ: objectives %v and %v", one.Objective, eight.Objective)
	}
	for r := range one.RestartObjectives {
		if one.RestartObjectives[r] != eight.RestartObjectives[r] {
			t.Fatalf("restart %d: %v with 1 worker, %v with 8", r, one.RestartObjectives[r], eight.RestartObjectives[r])
		}
	}
	other := run(8, 8)
	same := true
	for r := range one.RestartObjectives {
		same = same && one.RestartObjectives[r] == other.RestartObjectives[r]
	}
	if same {
		t.Fatal("seeds 7 and 8 gave the same 40 restarts")
	}
}

func TestKFeaturesProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	X, _, _ := kfSynthetic(rng, 30, 3, 4, 3, 1)
	var calls, last atomic.Int64
	bad := atomic.Bool{}
	_, err := KFeatures(context.Background(), X, learn.Options{K: 3, Restarts: 25, Workers: 3, Progress: func(p learn.Progress) {
		calls.Add(1)
		if p.Stage != "restart" || p.Total != 25 || p.K != 3 || p.Done < 1 || p.Done > 25 || math.IsNaN(p.Best) {
			bad.Store(true)
		}
		if p.Done == 25 {
			last.Store(1)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 25 || last.Load() != 1 || bad.Load() {
		t.Fatalf("%d progress calls, final seen %v, malformed %v", calls.Load(), last.Load() == 1, bad.Load())
	}
}

// TestKFeaturesDegenerate: inputs that make features redundant give sensible results,
// never NaN or a panic.
func TestKFeaturesDegenerate(t *testing.T) {
	same := mat.NewDense(10, 3, nil)
	for i := 0; i < 10; i++ {
		same.SetRow(i, []float64{1, 2, 3})
	}
	zeros := mat.NewDense(6, 4, nil)
	two := mat.NewDense(2, 3, []float64{1, 0, 2, 0, 1, 5})
	one := mat.NewDense(1, 2, []float64{3, 4})
	dup := mat.NewDense(12, 3, nil) // rank 3: at most 3 features can be independent
	for i := 0; i < 12; i++ {
		dup.SetRow(i, []float64{float64(i % 3), float64((i % 3) * (i % 3)), 1})
	}
	wide := mat.NewDense(3, 50, nil) // D > N: the restarts run on the LQ factor
	for i := range wide.RawMatrix().Data {
		wide.RawMatrix().Data[i] = math.Sin(float64(i))
	}
	cases := []struct {
		name     string
		X        *mat.Dense
		k, wantK int
		wantObj  float64
	}{
		{"identical rows", same, 3, 1, 0},
		{"all zero", zeros, 2, 1, 0},
		{"N=2 K=2", two, 2, 2, 0},
		{"N=1 K=1", one, 1, 1, 0},
		{"D>N K=3", wide, 3, 3, 0},
		{"3 distinct rows K=5", dup, 5, 3, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := KFeatures(context.Background(), c.X, learn.Options{K: c.k, Restarts: 5})
			if err != nil {
				t.Fatal(err)
			}
			kfCheckResult(t, res, c.X)
			if res.K != c.wantK || math.Abs(res.Objective-c.wantObj) > 1e-9 {
				t.Fatalf("K=%d objective %g, want K=%d objective %g", res.K, res.Objective, c.wantK, c.wantObj)
			}
		})
	}
}

func TestKFeaturesBadInput(t *testing.T) {
	good := mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	cases := []struct {
		name string
		X    *mat.Dense
		opt  learn.Options
		want string
	}{
		{"negative k", good, learn.Options{K: -1}, "k must be ≥ 1, got -1"},
		{"k > 64", good, learn.Options{K: 65}, "k must be ≤ 64, got 65"},
		{"k > N", good, learn.Options{K: 5}, "k = 5 exceeds the number of rows N = 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := KFeatures(context.Background(), c.X, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
			if res != nil {
				t.Fatal("result returned with an error")
			}
		})
	}
}

// TestKFeaturesMaxIter: one Z-step still ends with the least-squares A of its Z.
func TestKFeaturesMaxIter(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	X, _, _ := kfSynthetic(rng, 40, 4, 5, 4, 2)
	res, err := KFeatures(context.Background(), X, learn.Options{K: 4, Restarts: 3, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	kfCheckResult(t, res, X)
	if res.Iterations != 1 {
		t.Fatalf("%d iterations, want 1", res.Iterations)
	}
}

// TestKFeaturesStridedInput: X may be a view into a larger matrix.
func TestKFeaturesStridedInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	X, _, _ := kfSynthetic(rng, 30, 3, 6, 4, 0.5)
	big := mat.NewDense(30, 10, nil)
	big.Slice(0, 30, 2, 8).(*mat.Dense).Copy(X)
	view := big.Slice(0, 30, 2, 8).(*mat.Dense)
	a, err := KFeatures(context.Background(), X, learn.Options{K: 3, Restarts: 10, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := KFeatures(context.Background(), view, learn.Options{K: 3, Restarts: 10, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.Z, b.Z) || math.Abs(a.Objective-b.Objective) > 1e-9*a.Objective {
		t.Fatalf("view gave objective %v, copy %v", b.Objective, a.Objective)
	}
}

// TestCompressCode checks the bit deletion used when features are dropped.
func TestCompressCode(t *testing.T) {
	for _, c := range []struct{ code, dep, want uint64 }{
		{0b1011, 0b0010, 0b101},
		{0b1111, 0b1001, 0b11},
		{0b1, 0b1, 0},
		{1 << 63, 1, 1 << 62},
	} {
		if got := compressCode(c.code, c.dep); got != c.want {
			t.Errorf("compressCode(%b, %b) = %b, want %b", c.code, c.dep, got, c.want)
		}
		if bits.OnesCount64(compressCode(c.code, c.dep)) != bits.OnesCount64(c.code&^c.dep) {
			t.Errorf("compressCode(%b, %b) lost or gained bits", c.code, c.dep)
		}
	}
}

// TestKFeaturesAllocations: a restart allocates nothing, so the allocations of a run do
// not grow with the number of restarts (beyond the slice of restart objectives).
func TestKFeaturesAllocations(t *testing.T) {
	if kfRaceEnabled {
		t.Skip("the race detector allocates")
	}
	rng := rand.New(rand.NewPCG(111, 112))
	X, _, _ := kfSynthetic(rng, 50, 4, 8, 5, 0.5)
	allocs := func(restarts int) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, err := KFeatures(context.Background(), X, learn.Options{K: 4, Restarts: restarts, Workers: 2}); err != nil {
				t.Fatal(err)
			}
		})
	}
	few, many := allocs(20), allocs(2000)
	t.Logf("allocations: %v for 20 restarts, %v for 2000", few, many)
	if many > few+5 {
		t.Fatalf("%v allocations for 2000 restarts, %v for 20", many, few)
	}
}

// TestKFeaturesGramPaths: b_n from the kept Gram matrix and b_n recomputed from X are the
// same numbers up to rounding, so both paths find the same allocations.
func TestKFeaturesGramPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(121, 122))
	X, _, _ := kfSynthetic(rng, 40, 4, 12, 5, 0.3)
	with := newKFProblem(X)
	without := newKFProblem(X)
	without.gram = nil
	if with.gram == nil {
		t.Fatal("40×12 data should keep the Gram matrix")
	}
	cfg := learn.Config{Restarts: 30, MaxIter: 1000, Workers: 2}
	a, err := with.best(context.Background(), 4, cfg, 5, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := without.best(context.Background(), 4, cfg, 5, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for r := range a.objectives {
		if math.Abs(a.objectives[r]-b.objectives[r]) > 1e-9*(1+a.objectives[r]) {
			t.Fatalf("restart %d: %v with the Gram matrix, %v without", r, a.objectives[r], b.objectives[r])
		}
	}
}

// TestKFeaturesLQOnlyWhereItPays checks when K-features replaces X by the N×N factor L:
// for D well above N, not for D just above N, where the factorisation would cost more than
// it saves (and, for N above kfLQMaxN, an N×N matrix of gigabytes).
func TestKFeaturesLQOnlyWhereItPays(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, tc := range []struct {
		n, d int
		lq   bool
	}{
		{100, 196, true}, // the dice, raw pixels
		{100, 3000, true},
		{300, 320, false},
		{50, 40, false}, // D < N: nothing to gain
	} {
		X := mat.NewDense(tc.n, tc.d, nil)
		for i := range X.RawMatrix().Data {
			X.RawMatrix().Data[i] = rng.NormFloat64()
		}
		p := newKFProblem(X)
		if lq := p.d == tc.n && tc.d > tc.n; lq != tc.lq {
			t.Errorf("N %d, D %d: works on %d columns, want the LQ factor: %v", tc.n, tc.d, p.d, tc.lq)
		}
	}
	if 2*10000*12288 < kfLQWork*(12288-10000) {
		t.Error("the rule would factor 10 000 images of 64×64×3")
	}
}
