package cluster

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// TestCollapsedDPMeansRecoversBlobs: with λ² between the within- and between-blob squared
// distances collapsed DP-means finds the blobs exactly, and its objective is the DP-means
// objective of its own clustering: ‖X − ZA‖² with A the cluster means, plus λ²K (MAD-Bayes
// eq. 9 against eq. 3).
func TestCollapsedDPMeansRecoversBlobs(t *testing.T) {
	for _, k := range []int{1, 3, 5} {
		X, truth := gaussianBlobs(uint64(k), blobCentres(k, 4, 20), 20, 0.5)
		res, err := CollapsedDPMeans(context.Background(), X, learn.Options{Lambda2: 50, Restarts: 10, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.K != k {
			t.Fatalf("k=%d: collapsed DP-means found %d clusters", k, res.K)
		}
		lab := checkOneHot(t, res.Z, k)
		if ri := randIndex(lab, truth); ri != 1 {
			t.Errorf("k=%d: Rand index %v, want 1", k, ri)
		}
		checkFinite(t, res)
		// The DP-means objective of the same clustering, computed from scratch: each
		// cluster's mean, then the squared distances to it.
		n, d := X.Dims()
		var dp float64
		for c := 0; c < k; c++ {
			mean := make([]float64, d)
			m := 0
			for i := 0; i < n; i++ {
				if lab[i] == c {
					for j := range mean {
						mean[j] += X.At(i, j)
					}
					m++
				}
			}
			for i := 0; i < n; i++ {
				if lab[i] == c {
					for j := range mean {
						v := X.At(i, j) - mean[j]/float64(m)
						dp += v * v
					}
				}
			}
		}
		dp += 50 * float64(k)
		if math.Abs(dp-res.BPObjective) > 1e-9*dp || slices.Min(res.RestartObjectives) > res.BPObjective*(1+1e-12) {
			t.Errorf("k=%d: collapsed objective %v, DP-means objective of its clustering %v, best restart %v",
				k, res.BPObjective, dp, slices.Min(res.RestartObjectives))
		}
		if res.Lambda2 != 50 {
			t.Errorf("λ² %v", res.Lambda2)
		}
	}
}

// TestCollapsedDPMeansObjectiveNeverRises follows the objective of eq. (9), recomputed
// after every row visited, through whole restarts on overlapping data at several λ².
func TestCollapsedDPMeansObjectiveNeverRises(t *testing.T) {
	X, _ := gaussianBlobs(9, blobCentres(6, 4, 3), 30, 1.5)
	n, d := X.Dims()
	data, err := newBregData(X, bregEuclidean)
	if err != nil {
		t.Fatal(err)
	}
	for _, lambda2 := range []float64{0.5, 4, 30} {
		w := newCDPWork(data.y, n, d, lambda2, 1000)
		prev, steps := math.Inf(1), 0
		w.traceMoves = func(obj float64) {
			if obj > prev*(1+1e-12)+1e-12 {
				t.Fatalf("λ² %v: objective rose after a row's visit: %v → %v", lambda2, prev, obj)
			}
			prev = obj
			steps++
		}
		for r := 0; r < 5; r++ {
			prev = math.Inf(1)
			obj, err := w.run(context.Background(), w.states.cur, learn.RestartRNG(3, r))
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(obj-prev) > 1e-9*obj {
				t.Fatalf("λ² %v: the run returned %v, its last visit %v", lambda2, obj, prev)
			}
		}
		if steps < 5*n {
			t.Fatalf("λ² %v: only %d visits traced", lambda2, steps)
		}
	}
}

// TestCollapsedDPMeansAgainstDPMeans: on overlapping blobs, over the same restarts the
// collapsed algorithm's moves, which update the means as each row moves, reach an
// objective no worse than DP-means's within a few percent; the two minimise the same
// objective.
func TestCollapsedDPMeansAgainstDPMeans(t *testing.T) {
	X, _ := gaussianBlobs(4, blobCentres(5, 3, 4), 30, 1.2)
	opt := learn.Options{Lambda2: 6, Restarts: 30, Seed: 1}
	dp, err := DPMeans(context.Background(), X, opt)
	if err != nil {
		t.Fatal(err)
	}
	cdp, err := CollapsedDPMeans(context.Background(), X, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("DP-means K=%d objective %.3f; collapsed K=%d objective %.3f", dp.K, dp.BPObjective, cdp.K, cdp.BPObjective)
	if cdp.BPObjective > dp.BPObjective*1.05 {
		t.Errorf("collapsed DP-means %v, DP-means %v", cdp.BPObjective, dp.BPObjective)
	}
}

func TestCollapsedDPMeansWorkersDeterministic(t *testing.T) {
	X, _ := gaussianBlobs(7, blobCentres(6, 4, 3), 25, 1.5)
	var first *learn.Result
	for _, workers := range []int{1, 2, 8} {
		res, err := CollapsedDPMeans(context.Background(), X, learn.Options{Lambda2: 8, Restarts: 30, Seed: 5, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if !mat.Equal(res.Z, first.Z) || !mat.Equal(res.A, first.A) || res.BPObjective != first.BPObjective ||
			!slices.Equal(res.RestartObjectives, first.RestartObjectives) {
			t.Errorf("workers=%d gives a different result from workers=1", workers)
		}
	}
}

func TestCollapsedDPMeansBadInput(t *testing.T) {
	good, _ := gaussianBlobs(1, blobCentres(2, 2, 5), 5, 1)
	nan := mat.NewDense(2, 2, []float64{0, 1, math.NaN(), 0})
	for _, c := range []struct {
		name string
		X    *mat.Dense
		opt  learn.Options
		want string
	}{
		{"NaN", nan, learn.Options{Lambda2: 1}, "NaN"},
		{"kl", good, learn.Options{Lambda2: 1, Divergence: "kl"}, "euclidean divergence only"},
		{"no λ² or k", good, learn.Options{}, "needs lambda2 > 0 or a target k"},
		{"negative λ²", good, learn.Options{Lambda2: -1}, "lambda2 must be"},
		{"k too large", good, learn.Options{K: 100}, "target k must lie in"},
	} {
		_, err := CollapsedDPMeans(context.Background(), c.X, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// A target K instead of λ²: the farthest-first proposal.
	res, err := CollapsedDPMeans(context.Background(), good, learn.Options{K: 2, Restarts: 5, Seed: 1})
	if err != nil || !(res.Lambda2 > 0) {
		t.Errorf("target k = 2: %v, λ² %v", err, res.Lambda2)
	}
}
