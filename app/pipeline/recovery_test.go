package pipeline_test

import (
	"context"
	"encoding/csv"
	"io/fs"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/assets"
	"featurelab/internal/accuracy"
)

// TestStepwiseRecoversBuiltInTruth: on the built-in tabletop and tetris samples stepwise
// K-features recovers the true codes — every true feature column equals a learned column
// on at least 98% of the images. The tabletop scenes have a base (the empty table) and
// the result is shown in its readable form (features.WithBase): column 0 is owned by
// every image and the objects are the learned columns as they are, not their
// complements. The tetris images have no base, so there a complement counts too.
func TestStepwiseRecoversBuiltInTruth(t *testing.T) {
	accuracy.Check(t)
	tests := []struct {
		sample  string
		pca     int
		lambda2 float64
		base    bool
	}{
		{"tabletop", pipeline.DefaultPCA, 20, true},
		{"tabletop", pipeline.DefaultPCA, 0, true}, // λ² and K from the λ² path
		{"tetris", 0, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.sample, func(t *testing.T) {
			a, err := result.Analyze(context.Background(), pipeline.Request{
				Source: pipeline.Source{Sample: tt.sample}, PCA: tt.pca, Algorithm: algorithms.MustLookup("stepwise"),
				Options: learn.Options{Lambda2: tt.lambda2, Restarts: 100, Seed: 1},
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			truth := readTruth(t, tt.sample)
			codes := a.Codes()
			n := len(codes)
			if len(truth) != n {
				t.Fatalf("%d truth rows for %d images", len(truth), n)
			}
			for i, c := range codes {
				if tt.base && c[0] != '1' {
					t.Fatalf("image %d has code %s: the base (column 0) is not owned by every image", i, c)
				}
			}
			for j := range truth[a.Data.Names[0]] {
				best := 0
				for k := 0; k < a.Result.K; k++ {
					same := 0
					for i, name := range a.Data.Names {
						if (truth[name][j] == '1') == (codes[i][k] == '1') {
							same++
						}
					}
					best = max(best, same)
					if !tt.base {
						best = max(best, n-same)
					}
				}
				t.Logf("%s, λ² %.3g: true feature %d matched on %d of %d images (K = %d)", tt.sample, a.Result.Lambda2, j, best, n, a.Result.K)
				if best*100 < 98*n {
					t.Errorf("true feature %d matches a learned feature on only %d of %d images", j, best, n)
				}
			}
		})
	}
}

func readTruth(t *testing.T, sample string) map[string]string {
	t.Helper()
	f, err := assets.Samples().Open(sample + "/truth.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f.(fs.File)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows[1:] {
		out[r[0]] = r[1]
	}
	return out
}
