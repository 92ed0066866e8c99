package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/internal/realdata"
	"featurelab/algorithms/learn"
	"featurelab/internal/accuracy"
)

// checkFinite fails on any NaN or Inf in the result's numbers.
func checkFinite(t *testing.T, res *learn.Result) {
	t.Helper()
	for _, v := range append(append([]float64{res.Objective, res.BPObjective, res.Lambda2},
		res.A.RawMatrix().Data...), res.RestartObjectives...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("result holds %v", v)
		}
	}
}

// With λ² between the largest within-cluster and the smallest between-cluster squared
// distance, DP-means finds the blobs exactly.
func TestDPMeansRecoversBlobs(t *testing.T) {
	for _, k := range []int{1, 3, 5} {
		// Blobs 20 apart (squared 400 or more), noise 0.5 in 4 dimensions: squared
		// distances within a blob stay far below 50.
		X, truth := gaussianBlobs(uint64(k), blobCentres(k, 4, 20), 20, 0.5)
		res, err := DPMeans(context.Background(), X, learn.Options{Lambda2: 50, Restarts: 10, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.K != k {
			t.Fatalf("k=%d: DP-means found %d clusters", k, res.K)
		}
		lab := checkOneHot(t, res.Z, k)
		if ri := randIndex(lab, truth); ri != 1 {
			t.Errorf("k=%d: Rand index %v, want 1", k, ri)
		}
		if rss := learn.ResidualSS(X, res.Z, res.A); math.Abs(rss-res.Objective) > 1e-9*rss {
			t.Errorf("k=%d: objective %v but ‖X − ZA‖² = %v", k, res.Objective, rss)
		}
		if res.BPObjective != res.Objective+50*float64(k) || res.Lambda2 != 50 {
			t.Errorf("k=%d: bp objective %v, objective %v, lambda2 %v",
				k, res.BPObjective, res.Objective, res.Lambda2)
		}
		if slices.Min(res.RestartObjectives) != res.BPObjective {
			t.Errorf("k=%d: best restart %v is not the result's %v", k, slices.Min(res.RestartObjectives), res.BPObjective)
		}
	}
}

func TestDPMeansLambda2Extremes(t *testing.T) {
	X, _ := gaussianBlobs(3, blobCentres(4, 3, 5), 10, 1)
	n, _ := X.Dims()
	hist := mat.NewDense(n, 3, nil) // distinct positive rows for kl and idiv
	for i := 0; i < n; i++ {
		hist.SetRow(i, []float64{1 + float64(i), 2 + float64(i%7), 0.5 + float64(i%3)})
	}
	for _, div := range []string{"euclidean", "kl", "idiv"} {
		data := X
		if div != "euclidean" {
			data = hist
		}
		huge, err := DPMeans(context.Background(), data, learn.Options{Lambda2: 1e12, Restarts: 3, Divergence: div})
		if err != nil {
			t.Fatal(err)
		}
		checkFinite(t, huge)
		if huge.K != 1 {
			t.Errorf("%s: λ² = 1e12 gives %d clusters, want 1", div, huge.K)
		}
		tiny, err := DPMeans(context.Background(), data, learn.Options{Lambda2: 1e-12, Restarts: 3, Divergence: div})
		if err != nil {
			t.Fatal(err)
		}
		checkFinite(t, tiny)
		if tiny.K != n || tiny.Objective != 0 {
			t.Errorf("%s: λ² = 1e-12 gives %d clusters and objective %v, want %d and 0", div, tiny.K, tiny.Objective, n)
		}
		checkOneHot(t, tiny.Z, n)
	}
	// One cluster's objective is the scatter about the global mean.
	res, err := DPMeans(context.Background(), X, learn.Options{Lambda2: 1e12, Restarts: 1})
	if err != nil {
		t.Fatal(err)
	}
	var scatter float64
	mean := make([]float64, 3)
	for i := 0; i < n; i++ {
		for j := range mean {
			mean[j] += X.At(i, j) / float64(n)
		}
	}
	for i := 0; i < n; i++ {
		scatter += learn.SqDist(X.RawRowView(i), mean)
	}
	if math.Abs(res.Objective-scatter) > 1e-9*scatter {
		t.Errorf("one cluster: objective %v, want the scatter %v", res.Objective, scatter)
	}
}

// Histograms drawn from three distinct multinomials: KL DP-means recovers the groups.
func TestDPMeansKLHistograms(t *testing.T) {
	probs := [][]float64{
		{0.4, 0.3, 0.1, 0.05, 0.05, 0.05, 0.02, 0.03},
		{0.02, 0.03, 0.05, 0.4, 0.3, 0.1, 0.05, 0.05},
		{0.1, 0.05, 0.05, 0.02, 0.03, 0.05, 0.4, 0.3},
	}
	rng := rand.New(rand.NewPCG(4, 4))
	const perGroup, draws = 20, 300
	X := mat.NewDense(3*perGroup, 8, nil)
	truth := make([]int, 3*perGroup)
	for i := range truth {
		g := i % 3
		truth[i] = g
		row := X.RawRowView(i)
		for range draws {
			u, b := rng.Float64(), 0
			for ; b < 7 && u >= probs[g][b]; b++ {
				u -= probs[g][b]
			}
			row[b]++ // raw counts: DP-means normalises them
		}
	}
	for _, opt := range []learn.Options{
		{Divergence: "kl", Lambda2: 0.3, Restarts: 10},
		{Divergence: "kl", K: 3, Restarts: 10}, // λ² from farthest-first
	} {
		res, err := DPMeans(context.Background(), X, opt)
		if err != nil {
			t.Fatal(err)
		}
		checkFinite(t, res)
		if res.K != 3 {
			t.Fatalf("%+v: %d clusters, want 3 (λ² = %v)", opt, res.K, res.Lambda2)
		}
		if ri := randIndex(checkOneHot(t, res.Z, 3), truth); ri != 1 {
			t.Errorf("%+v: Rand index %v, want 1", opt, ri)
		}
		for c := 0; c < 3; c++ {
			if s := floatsSum(res.A.RawRowView(c)); math.Abs(s-1) > 1e-12 {
				t.Errorf("centre %d sums to %v, want a histogram", c, s)
			}
		}
	}
}

func floatsSum(s []float64) float64 {
	var t float64
	for _, v := range s {
		t += v
	}
	return t
}

// The farthest-first λ² for a target k gives k clusters on well-separated blobs.
func TestDPMeansFarthestFirstTarget(t *testing.T) {
	for _, k := range []int{2, 3, 4, 5, 6} {
		for seed := uint64(1); seed <= 4; seed++ {
			X, truth := gaussianBlobs(seed, blobCentres(k, 4, 20), 25, 1)
			res, err := DPMeans(context.Background(), X, learn.Options{K: k, Restarts: 20, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			if want := FarthestFirstLambda2(X, k, ""); res.Lambda2 != want || want <= 0 {
				t.Errorf("k=%d: result λ² %v, FarthestFirstLambda2 %v", k, res.Lambda2, want)
			}
			if res.K != k {
				t.Errorf("k=%d seed %d: %d clusters (λ² = %v)", k, seed, res.K, res.Lambda2)
				continue
			}
			if ri := randIndex(checkOneHot(t, res.Z, k), truth); ri != 1 {
				t.Errorf("k=%d seed %d: Rand index %v", k, seed, ri)
			}
		}
	}
}

// Hand-checkable farthest-first: points 0, 1, 10 on a line, mean 11/3.
func TestFarthestFirstLambda2(t *testing.T) {
	X := mat.NewDense(3, 1, []float64{0, 1, 10})
	m := 11.0 / 3
	for _, tc := range []struct {
		k    int
		div  string
		want float64
	}{
		{1, "", (10 - m) * (10 - m)}, // round 1: 10 is farthest from the mean
		{2, "euclidean", m * m},      // round 2: 0 is farthest from {mean, 10}
		{3, "", 1},                   // round 3: 1 is 1 from 0
		{4, "", 0},                   // k > N
		{0, "", 0},                   // k < 1
		{2, "cosine", 0},             // unknown divergence
		{2, "kl", 0},                 // the zero row has no histogram
	} {
		if got := FarthestFirstLambda2(X, tc.k, tc.div); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("k=%d %q: λ² = %v, want %v", tc.k, tc.div, got, tc.want)
		}
	}
	// Duplicate rows: once every distinct row is a centre nothing is left to cover.
	dup := mat.NewDense(4, 1, []float64{2, 2, 5, 5})
	if got := FarthestFirstLambda2(dup, 4, ""); got != 0 {
		t.Errorf("duplicates: λ² = %v, want 0", got)
	}
}

// DP-means' objective never rises from pass to pass (Kulis & Jordan, Thm 3.1).
func TestDPMeansObjectiveNeverRises(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	n, d := 200, 5
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, math.Abs(rng.NormFloat64()*float64(1+j)+float64(i%4)))
		}
	}
	for _, div := range []string{"euclidean", "kl", "idiv"} {
		kind, _ := parseDivergence(div)
		data, err := newBregData(X, kind)
		if err != nil {
			t.Fatal(err)
		}
		mean, lmean := data.mean()
		for _, k := range []int{3, 10, 40} {
			var trace []float64
			var traceCount []int
			w := &dpWork{data: data, lambda2: data.farthestFirst(k, mean, lmean), maxIter: 1000,
				mean: mean, lmean: lmean, states: bestOf[dpState]{cur: &dpState{}, best: &dpState{}}, perm: make([]int, n),
				onPass: func(_ int, obj float64, k int) {
					trace, traceCount = append(trace, obj), append(traceCount, k)
				}}
			for r := 0; r < 10; r++ {
				trace, traceCount = trace[:0], traceCount[:0]
				obj, err := w.run(context.Background(), w.states.cur, learn.RestartRNG(1, r))
				if err != nil {
					t.Fatal(err)
				}
				for it := 1; it < len(trace); it++ {
					if trace[it] > trace[it-1]*(1+1e-12) {
						t.Fatalf("%s k=%d restart %d: objective rose at pass %d: %v → %v (K %v)",
							div, k, r, it, trace[it-1], trace[it], traceCount)
					}
				}
				if trace[len(trace)-1] != obj || math.Abs(obj-data.objective(w.states.cur, w.lambda2)) > 1e-9*obj {
					t.Fatalf("%s k=%d restart %d: trace ends at %v, run returned %v", div, k, r, trace[len(trace)-1], obj)
				}
			}
		}
	}
}

func TestDPMeansWorkersDeterministic(t *testing.T) {
	X, _ := gaussianBlobs(7, blobCentres(6, 4, 3), 25, 1.5) // overlapping: orders matter
	var first *learn.Result
	for _, workers := range []int{1, 2, 8} {
		res, err := DPMeans(context.Background(), X, learn.Options{Lambda2: 8, Restarts: 30, Seed: 5, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			if slices.Min(res.RestartObjectives) == slices.Max(res.RestartObjectives) {
				t.Log("every restart found the same objective; the test is weaker than meant")
			}
			continue
		}
		if !mat.Equal(res.Z, first.Z) || !mat.Equal(res.A, first.A) || res.BPObjective != first.BPObjective ||
			!slices.Equal(res.RestartObjectives, first.RestartObjectives) {
			t.Errorf("workers=%d gives a different result from workers=1", workers)
		}
	}
}

func TestDPMeansBadInput(t *testing.T) {
	good := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	for _, tc := range []struct {
		name string
		X    *mat.Dense
		opt  learn.Options
		want string
	}{
		{"no lambda", good, learn.Options{}, "dpmeans needs lambda2 > 0 or a target k"},
		{"target k > N", good, learn.Options{K: 4}, "target k must lie in 1…N = 3, got 4"},
		{"target k < 0", good, learn.Options{K: -2}, "got -2"},
		{"inf lambda", good, learn.Options{Lambda2: math.Inf(1)}, "lambda2"},
		{"divergence", good, learn.Options{Lambda2: 1, Divergence: "l1"}, "divergence must be one of"},
		{"kl negative", mat.NewDense(1, 2, []float64{-1, 2}), learn.Options{Lambda2: 1, Divergence: "kl"}, "non-negative"},
	} {
		_, err := DPMeans(context.Background(), tc.X, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

func TestDPMeansTabletop(t *testing.T) {
	accuracy.Check(t)
	X := realdata.Tabletop(t)
	res, err := DPMeans(context.Background(), X, learn.Options{K: 5, Restarts: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkFinite(t, res)
	t.Logf("tabletop, farthest-first λ² = %.4f for 5: K = %d, counts %v, objective %.4f, bp %.4f",
		res.Lambda2, res.K, clusterSizes(res.Z), res.Objective, res.BPObjective)
}

// countingSource is a rand.Source that counts its draws.
type countingSource struct {
	src   rand.Source
	draws int
}

func (c *countingSource) Uint64() uint64 { c.draws++; return c.src.Uint64() }

// TestDPMeansPermutesEveryPass checks that every pass visits the rows in a new random
// order (Jiang, Kulis & Jordan, §5), not one order per restart: a permutation of N rows
// takes at least N − 1 draws, so P passes take at least P(N − 1).
func TestDPMeansPermutesEveryPass(t *testing.T) {
	X, _ := gaussianBlobs(4, blobCentres(5, 3, 8), 30, 1)
	n, _ := X.Dims()
	data, err := newBregData(X, bregEuclidean)
	if err != nil {
		t.Fatal(err)
	}
	mean, lmean := data.mean()
	passes := 0
	w := &dpWork{data: data, lambda2: data.farthestFirst(5, mean, lmean), maxIter: 1000,
		mean: mean, lmean: lmean, states: bestOf[dpState]{cur: &dpState{}, best: &dpState{}}, perm: make([]int, n),
		onPass: func(pass int, _ float64, _ int) { passes = pass }}
	src := &countingSource{src: rand.NewPCG(1, 2)}
	if _, err := w.run(context.Background(), w.states.cur, rand.New(src)); err != nil {
		t.Fatal(err)
	}
	if passes < 2 {
		t.Fatalf("%d passes: the data should need several", passes)
	}
	if src.draws < passes*(n-1) {
		t.Errorf("%d draws for %d passes over %d rows: the order is not redrawn every pass", src.draws, passes, n)
	}
}
