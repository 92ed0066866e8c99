package result

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/internal/accuracy"
	"featurelab/internal/scenes"
)

// TestIBPSettlesOnAScene is issue 39's check of the tied prior on a folder like a
// user's (scene set 1 of internal/scenes: two cards, a shadow and stripes on a real
// photo at 20–90 %, exposure ±5 %, ±1 px jitter, JPEG): with the defaults the IBP's K
// trace is flat over the second half of the sweeps, K ≤ 8, and each object is one
// feature that adds it, owned by the images that show it. The papers' Gamma prior, on
// the same folder, ends with far more features (K = 30 over 1 000 sweeps), which is what
// this test would see if the tie were lost.
func TestIBPSettlesOnAScene(t *testing.T) {
	accuracy.Check(t)
	ctx := context.Background()
	data := filepath.Dir(accuracy.SharedData(t, "bsds500-train"))
	dir, folder := accuracy.WriteScene(t, scenes.Sets(data)[0])
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const sweeps = 200
	ks := map[string]int{}
	for _, prior := range []string{learn.AlphaTied, learn.AlphaGamma} {
		a, err := RunOn(ctx, p, algorithms.MustLookup("ibp"), pipeline.Description{}, learn.Options{Sweeps: sweeps, Chains: 2, Seed: 1, AlphaPrior: prior}, nil)
		if err != nil {
			t.Fatal(err)
		}
		k := a.Result.K
		ks[prior] = k
		if prior == learn.AlphaGamma {
			continue
		}
		second := a.Result.Trace.K[sweeps/2:]
		if lo, hi := slices.Min(second), slices.Max(second); hi-lo > 1 || k > 8 {
			t.Errorf("tied: K = %d, its trace between %d and %d over the second half; want ≤ 8 and settled", k, lo, hi)
		}
		if a.Result.Lambda2 <= 0 || a.Options.Lambda2 != 0 {
			t.Errorf("tied: λ² = %v with %v asked, want the price stepwise chose with none asked", a.Result.Lambda2, a.Options.Lambda2)
		}
		found, wrong := misread(a, truthCodes(t, os.DirFS(dir), a.Data.Names), folder.Objects)
		if found != 4 || len(wrong) > 0 {
			t.Errorf("tied: %d of 4 objects found; misread: %v", found, wrong)
		}
	}
	t.Logf("K: tied %d, gamma %d", ks[learn.AlphaTied], ks[learn.AlphaGamma])
	if ks[learn.AlphaGamma] <= ks[learn.AlphaTied]+2 {
		t.Errorf("gamma K = %d, tied %d: the folder no longer shows what the tie is for", ks[learn.AlphaGamma], ks[learn.AlphaTied])
	}
}
