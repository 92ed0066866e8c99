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

// gaussianBlobs draws perCluster rows around each centre with isotropic noise sigma and
// returns them with their true labels, rows interleaved so no cluster is contiguous.
func gaussianBlobs(seed uint64, centres [][]float64, perCluster int, sigma float64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := len(centres[0])
	n := len(centres) * perCluster
	X := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % len(centres)
		labels[i] = c
		for j := 0; j < d; j++ {
			X.Set(i, j, centres[c][j]+sigma*rng.NormFloat64())
		}
	}
	return X, labels
}

// blobCentres returns k centres in d dimensions, pairwise at least sep apart (scaled
// standard basis vectors, plus the origin).
func blobCentres(k, d int, sep float64) [][]float64 {
	out := make([][]float64, k)
	for c := range out {
		out[c] = make([]float64, d)
		if c > 0 {
			out[c][(c-1)%d] = sep * float64(1+(c-1)/d)
		}
	}
	return out
}

// clusterLabels reads each row's cluster off a one-hot Z.
func clusterLabels(Z *mat.Dense) []int {
	n, k := Z.Dims()
	out := make([]int, n)
	for i := 0; i < n; i++ {
		out[i] = -1
		for j := 0; j < k; j++ {
			if Z.At(i, j) != 0 {
				if out[i] >= 0 {
					return nil // not one-hot
				}
				out[i] = j
			}
		}
	}
	return out
}

// randIndex is the fraction of pairs of rows on which two partitions agree.
func randIndex(a, b []int) float64 {
	var agree, pairs int
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if (a[i] == a[j]) == (b[i] == b[j]) {
				agree++
			}
			pairs++
		}
	}
	if pairs == 0 {
		return 1
	}
	return float64(agree) / float64(pairs)
}

// checkOneHot fails unless Z is a one-hot N×K matrix with no empty column.
func checkOneHot(t *testing.T, Z *mat.Dense, k int) []int {
	t.Helper()
	_, kz := Z.Dims()
	if kz != k {
		t.Fatalf("Z has %d columns, want %d", kz, k)
	}
	lab := clusterLabels(Z)
	if lab == nil || slices.Contains(lab, -1) {
		t.Fatal("Z is not one-hot")
	}
	counts := make([]int, k)
	for _, c := range lab {
		counts[c]++
	}
	if slices.Contains(counts, 0) {
		t.Fatalf("empty cluster: counts %v", counts)
	}
	return lab
}

func TestKMeansKnownAnswer(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 10, 11})
	res, err := KMeans(context.Background(), X, learn.Options{K: 2, Restarts: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Objective != 1 {
		t.Errorf("objective %v, want 1", res.Objective)
	}
	want := []float64{0.5, 10.5} // clusters numbered by first row
	if got := res.A.RawMatrix().Data; !slices.Equal(got, want) {
		t.Errorf("centres %v, want %v", got, want)
	}
	if got := learn.Codes(res.Z); !slices.Equal(got, []string{"10", "10", "01", "01"}) {
		t.Errorf("codes %v", got)
	}
}

func TestKMeansRecoversBlobs(t *testing.T) {
	for _, tc := range []struct {
		k, d, per int
	}{{2, 2, 20}, {4, 5, 30}, {7, 3, 15}} {
		X, truth := gaussianBlobs(uint64(tc.k), blobCentres(tc.k, tc.d, 20), tc.per, 0.5)
		res, err := KMeans(context.Background(), X, learn.Options{K: tc.k, Restarts: 20, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		lab := checkOneHot(t, res.Z, tc.k)
		if ri := randIndex(lab, truth); ri != 1 {
			t.Errorf("k=%d: Rand index %v, want 1", tc.k, ri)
		}
		if rss := learn.ResidualSS(X, res.Z, res.A); math.Abs(rss-res.Objective) > 1e-9*rss {
			t.Errorf("k=%d: objective %v but ‖X − ZA‖² = %v", tc.k, res.Objective, rss)
		}
		if len(res.RestartObjectives) != 20 || slices.Min(res.RestartObjectives) != res.Objective {
			t.Errorf("k=%d: restart objectives %v do not have the result's %v as minimum",
				tc.k, res.RestartObjectives, res.Objective)
		}
		if res.K != tc.k || res.BPObjective != res.Objective {
			t.Errorf("k=%d: result K=%d bp=%v", tc.k, res.K, res.BPObjective)
		}
	}
}

func TestKMeansLambda2(t *testing.T) {
	X, _ := gaussianBlobs(1, blobCentres(3, 2, 10), 5, 0.1)
	res, err := KMeans(context.Background(), X, learn.Options{K: 3, Lambda2: 2.5, Restarts: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.BPObjective != res.Objective+7.5 || res.Lambda2 != 2.5 {
		t.Errorf("bp objective %v, objective %v, lambda2 %v", res.BPObjective, res.Objective, res.Lambda2)
	}
}

// With three tight blobs far apart, D² sampling puts one seed in each blob: the chance
// of a second seed in an already chosen blob is about 1e-8 per draw.
func TestKMeansPlusPlusSeeding(t *testing.T) {
	X, truth := gaussianBlobs(5, blobCentres(3, 4, 100), 10, 0.01)
	n, d := X.Dims()
	w := newKMWork(learn.FlatRows(X), n, d, 3, 100)
	for r := 0; r < 200; r++ {
		w.lloyd.Seed(context.Background(), learn.RestartRNG(9, r), w.states.cur.cent, w.states.cur.assign)
		seen := map[int]bool{}
		for c := 0; c < 3; c++ {
			cent := w.states.cur.cent[c*d : (c+1)*d]
			row := -1
			for i := 0; i < n; i++ {
				if slices.Equal(X.RawRowView(i), cent) {
					row = i
				}
			}
			if row < 0 {
				t.Fatalf("restart %d: centre %d is not a data row", r, c)
			}
			seen[truth[row]] = true
		}
		if len(seen) != 3 {
			t.Fatalf("restart %d: seeds cover blobs %v, want all 3", r, seen)
		}
	}
}

// Identical rows leave D² sampling nothing to weigh and every centre equal; the empty
// clusters must be re-seeded, not divided by zero.
func TestKMeansDuplicateRows(t *testing.T) {
	data := make([]float64, 0, 24)
	for i := 0; i < 8; i++ {
		data = append(data, 1, 2, 3)
	}
	for _, k := range []int{1, 3, 8} {
		res, err := KMeans(context.Background(), mat.NewDense(8, 3, data), learn.Options{K: k, Restarts: 4})
		if err != nil {
			t.Fatal(err)
		}
		checkOneHot(t, res.Z, k)
		if res.Objective != 0 {
			t.Errorf("k=%d: objective %v, want 0", k, res.Objective)
		}
		for _, v := range res.A.RawMatrix().Data {
			if math.IsNaN(v) {
				t.Fatalf("k=%d: NaN centre", k)
			}
		}
	}
	// Two distinct points, each repeated: k = 2 separates them, k = 3 splits one copy off.
	X := mat.NewDense(6, 1, []float64{0, 0, 0, 5, 5, 5})
	res, err := KMeans(context.Background(), X, learn.Options{K: 3, Restarts: 4})
	if err != nil {
		t.Fatal(err)
	}
	checkOneHot(t, res.Z, 3)
	if res.Objective != 0 {
		t.Errorf("k=3 on two values: objective %v, want 0", res.Objective)
	}
}

// Lloyd's steps each lower the objective, so its trace over assignment steps never
// rises, and once no row moves it ends at the objective of the final state.
func TestKMeansObjectiveNeverRises(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	n, d := 300, 6
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rng.NormFloat64() * float64(1+i%3)
	}
	for _, k := range []int{2, 8, 40} {
		w := newKMWork(x, n, d, k, 1000)
		st := w.states.cur
		var trace []float64
		for r := 0; r < 20; r++ {
			w.lloyd.Seed(context.Background(), learn.RestartRNG(4, r), st.cent, st.assign)
			trace = trace[:0]
			iters, err := w.lloyd.Run(context.Background(), st.cent, st.assign, 1000,
				func(_ int, obj float64) { trace = append(trace, obj) })
			if err != nil {
				t.Fatal(err)
			}
			for it := 1; it < len(trace); it++ {
				if trace[it] > trace[it-1]*(1+1e-12) {
					t.Fatalf("k=%d restart %d: objective rose at step %d: %v → %v",
						k, r, it+1, trace[it-1], trace[it])
				}
			}
			obj := sqDistSum(x, st.cent, st.assign, n, d)
			if len(trace) != iters+1 || trace[len(trace)-1] != obj {
				t.Fatalf("k=%d restart %d: trace %v does not end at objective %v after %d updates",
					k, r, trace, obj, iters)
			}
		}
	}
}

func TestKMeansWorkersDeterministic(t *testing.T) {
	X, _ := gaussianBlobs(7, blobCentres(6, 4, 3), 25, 1.5) // overlapping: restarts differ
	var first *learn.Result
	for _, workers := range []int{1, 3, 8} {
		res, err := KMeans(context.Background(), X, learn.Options{K: 6, Restarts: 40, Seed: 11, Workers: workers})
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
		if !mat.Equal(res.Z, first.Z) || !mat.Equal(res.A, first.A) ||
			res.Objective != first.Objective || !slices.Equal(res.RestartObjectives, first.RestartObjectives) ||
			res.Iterations != first.Iterations {
			t.Errorf("workers=%d gives a different result from workers=1", workers)
		}
	}
	other, err := KMeans(context.Background(), X, learn.Options{K: 6, Restarts: 40, Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(other.RestartObjectives, first.RestartObjectives) {
		t.Error("seeds 11 and 12 give the same restart objectives")
	}
}

func TestKMeansBadInput(t *testing.T) {
	good := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	for _, tc := range []struct {
		name string
		X    *mat.Dense
		opt  learn.Options
		want string
	}{
		{"k>N", good, learn.Options{K: 4}, "k must lie in 1…N = 3, got 4"},
		{"default k>N", good, learn.Options{}, "got 5"},
		{"k<0", good, learn.Options{K: -1}, "got -1"},
	} {
		_, err := KMeans(context.Background(), tc.X, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

func TestKMeansMaxIter(t *testing.T) {
	X, _ := gaussianBlobs(3, blobCentres(5, 3, 2), 40, 1)
	res, err := KMeans(context.Background(), X, learn.Options{K: 5, Restarts: 5, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations != 1 {
		t.Errorf("iterations %d, want 1", res.Iterations)
	}
	if rss := learn.ResidualSS(X, res.Z, res.A); math.Abs(rss-res.Objective) > 1e-9*rss {
		t.Errorf("objective %v but ‖X − ZA‖² = %v", res.Objective, rss)
	}
}

// A strided view of a larger matrix clusters like its copy.
func TestKMeansStridedInput(t *testing.T) {
	X, _ := gaussianBlobs(4, blobCentres(3, 3, 6), 10, 1)
	n, d := X.Dims()
	big := mat.NewDense(n, d+2, nil)
	big.Slice(0, n, 1, d+1).(*mat.Dense).Copy(X)
	view := big.Slice(0, n, 1, d+1).(*mat.Dense)
	a, err := KMeans(context.Background(), X, learn.Options{K: 3, Restarts: 5})
	if err != nil {
		t.Fatal(err)
	}
	b, err := KMeans(context.Background(), view, learn.Options{K: 3, Restarts: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.Z, b.Z) || a.Objective != b.Objective {
		t.Error("strided view clusters differently from its copy")
	}
}

func TestKMeansTabletop(t *testing.T) {
	accuracy.Check(t)
	X := realdata.Tabletop(t)
	res, err := KMeans(context.Background(), X, learn.Options{K: 5, Restarts: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkOneHot(t, res.Z, 5)
	t.Logf("tabletop k=5: objective %.4f, counts %v, %d iterations", res.Objective, clusterSizes(res.Z), res.Iterations)
}

func TestKMeansORLFaces(t *testing.T) {
	accuracy.Check(t)
	X := realdata.ORL(t)
	for _, k := range []int{3, 4} {
		res, err := KMeans(context.Background(), X, learn.Options{K: k, Restarts: 100, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		checkOneHot(t, res.Z, k)
		t.Logf("ORL faces k=%d: images per cluster %v, objective %.4f", k, clusterSizes(res.Z), res.Objective)
	}
}

// clusterSizes is how many rows each column of a one-hot Z holds.
func clusterSizes(Z *mat.Dense) []int {
	_, k := Z.Dims()
	counts := make([]int, k)
	for _, c := range clusterLabels(Z) {
		counts[c]++
	}
	return counts
}
