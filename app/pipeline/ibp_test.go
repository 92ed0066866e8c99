package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/app/saved"
	"featurelab/internal/accuracy"
)

// TestIBPRecoversBuiltInTetris runs the IBP Gibbs sampler as `featurelab analyze
// --algo ibp --sample tetris --pca 0` does, on the built-in sample (5 blocks, noise sd
// 0.1, issue 4's "Done means"): after 1000 sweeps the posterior K is 5, the posterior
// mean of σ_X is within [0.085, 0.115], every true code column is a learned one, and
// every learned feature is its block (the least-squares fit of the data to the true
// codes) within a small RMSE.
func TestIBPRecoversBuiltInTetris(t *testing.T) {
	accuracy.Check(t)
	a, err := result.Analyze(context.Background(), pipeline.Request{
		Source: pipeline.Source{Sample: "tetris"}, PCA: 0, Algorithm: algorithms.MustLookup("ibp"),
		Options: learn.Options{Chains: 4, Sweeps: 1000, Seed: 1}, // 4 chains, the CLI default
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := a.Result
	t.Logf("K %d, K histogram %v, posterior means α %.3f σ_X %.4f σ_A %.4f, acceptance %.2f/%.2f",
		res.K, res.KHistogram, res.Alpha, res.SigmaX, res.SigmaA, res.Trace.AcceptX, res.Trace.AcceptA)
	mode := 0
	for k, c := range res.KHistogram {
		if c > res.KHistogram[mode] {
			mode = k
		}
	}
	if res.K != 5 || mode != 5 {
		t.Fatalf("final K %d, posterior mode of K %d (histogram %v), want 5 and 5", res.K, mode, res.KHistogram)
	}
	if res.SigmaX < 0.085 || res.SigmaX > 0.115 {
		t.Errorf("posterior mean σ_X = %.4f, want within [0.085, 0.115] (true 0.1)", res.SigmaX)
	}

	// The summary `analyze --json` prints carries the sampler's posterior summaries.
	var js bytes.Buffer
	if err := saved.WriteJSON(&js, saved.SummaryOf(a)); err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal(js.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]float64{"k": 5, "alpha": res.Alpha, "sigma_x": res.SigmaX, "sigma_a": res.SigmaA} {
		if got, ok := sum[key].(float64); !ok || got != want {
			t.Errorf("summary %s = %v, want %v", key, sum[key], want)
		}
	}
	if tr, ok := sum["k_trace"].([]any); !ok || len(tr) != 1000 || tr[999].(float64) != float64(res.K) {
		t.Errorf("summary k_trace has %d entries, want 1000 ending with the final K %d", len(tr), res.K)
	}

	truth := readTruth(t, "tetris")
	n, d := a.Scores.Dims()
	zt := mat.NewDense(n, 5, nil)
	for i, name := range a.Data.Names {
		for j, c := range truth[name] {
			if c == '1' {
				zt.Set(i, j, 1)
			}
		}
	}
	// The true blocks as the data show them: A = (Z'Z)⁻¹Z'X for the true Z.
	var at mat.Dense
	if err := at.Solve(zt, a.Scores); err != nil {
		t.Fatal(err)
	}
	codes := a.Codes()
	for j := 0; j < 5; j++ {
		match := -1
		for k := 0; k < res.K; k++ {
			same := 0
			for i := range codes {
				if (codes[i][k] == '1') == (zt.At(i, j) == 1) {
					same++
				}
			}
			if same == n {
				match = k
			}
		}
		if match < 0 {
			t.Errorf("true block %d is no learned feature's code column", j)
			continue
		}
		var ss float64
		for p := 0; p < d; p++ {
			diff := res.A.At(match, p) - at.At(j, p)
			ss += diff * diff
		}
		rmse := math.Sqrt(ss / float64(d))
		t.Logf("true block %d = learned feature %d (codes equal on %d/%d images), RMSE %.4f", j, match, n, n, rmse)
		if rmse > 0.02 {
			t.Errorf("true block %d: learned feature %d differs by RMSE %.4f, want ≤ 0.02", j, match, rmse)
		}
	}
}

// TestIBPChainsFromRestarts checks that the number of chains the window and the command
// line pass as Restarts reaches the sampler.
func TestIBPChainsFromRestarts(t *testing.T) {
	p, err := pipeline.Prepare(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: "tetris"}, PCA: 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, chains := range []int{1, 3} {
		a, err := result.RunOn(context.Background(), p, algorithms.MustLookup("ibp"), pipeline.Description{}, learn.Options{Chains: chains, Sweeps: 10, Seed: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(a.Result.RestartObjectives); got != chains || saved.SummaryOf(a).Restarts != chains {
			t.Errorf("Restarts %d: %d chains ran (summary says %d)", chains, got, saved.SummaryOf(a).Restarts)
		}
	}
}
