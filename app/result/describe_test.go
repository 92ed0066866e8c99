package result_test

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/describe"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/app/saved"
)

// checkHistogramRows fails unless every row of H is non-negative and sums to 1.
func checkHistogramRows(t *testing.T, what string, H *mat.Dense) {
	t.Helper()
	r, _ := H.Dims()
	for i := 0; i < r; i++ {
		var s float64
		for _, v := range H.RawRowView(i) {
			if v < 0 || math.IsNaN(v) {
				t.Fatalf("%s: row %d holds %v", what, i, v)
			}
			s += v
		}
		if math.Abs(s-1) > 1e-9 {
			t.Fatalf("%s: row %d sums to %v", what, i, s)
		}
	}
}

// TestDescribe: the colour histograms and the bags of visual words are histograms, one row
// per image, of the documented width; the words are the same for 1 and 3 workers, and
// another seed learns another vocabulary.
func TestDescribe(t *testing.T) {
	ctx := context.Background()
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Sample: "dice"}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(p.Data.Names)
	h, err := p.Describe(ctx, pipeline.FeaturesHistogram, 0, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := describe.HistogramBinsGrey
	if p.Data.Channels == 3 {
		want = describe.HistogramBinsColour * describe.HistogramBinsColour * describe.HistogramBinsColour
	}
	if r, c := h.Dims(); r != n || c != want {
		t.Fatalf("histograms %d×%d, want %d×%d", r, c, n, want)
	}
	checkHistogramRows(t, "histogram", h)
	one, err := p.Describe(ctx, pipeline.FeaturesWords, 20, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := one.Dims(); r != n || c != 20 {
		t.Fatalf("words %d×%d, want %d×20", r, c, n)
	}
	checkHistogramRows(t, "words", one)
	three, err := p.Describe(ctx, pipeline.FeaturesWords, 20, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(one, three) {
		t.Errorf("1 and 3 workers describe the images differently")
	}
	other, err := p.Describe(ctx, pipeline.FeaturesWords, 20, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	if mat.Equal(one, other) {
		t.Errorf("seeds 7 and 8 learned the same vocabulary")
	}
	if pcs, err := p.Describe(ctx, pipeline.FeaturesPCA, 0, 1, 0); err != nil || pcs != p.Scores {
		t.Errorf("pca: %v", err)
	}
}

// TestRunOnHistograms: K-means on colour histograms of a folder sorted into two
// subfolders (dark and light pictures) finds them, scored against the folders, with
// cluster pictures that are the means of the members' PCA scores; a representation
// other than the PCA scores is refused for a feature learner, an unknown one named, and
// a divergence of histograms on the PCA scores refused with its hint.
func TestRunOnHistograms(t *testing.T) {
	root := t.TempDir()
	writeShadePNGs(t, filepath.Join(root, "dark"), 20, 1, "a.png", "b.png", "c.png")
	writeShadePNGs(t, filepath.Join(root, "light"), 220, 2, "d.png", "e.png", "f.png")
	ctx := context.Background()
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Dir: root}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := result.RunOn(ctx, p, algorithms.MustLookup("kmeans"), pipeline.Description{Kind: pipeline.FeaturesHistogram}, learn.Options{K: 2, Restarts: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fs, ok := a.FolderScores()
	s := saved.SummaryOf(a)
	if !ok || math.Abs(fs.NMI-1) > 1e-12 || s.Features != pipeline.FeaturesHistogram || s.Seconds.Describe <= 0 {
		t.Errorf("scores %+v (%v), features %q, describe %v s", fs, ok, s.Features, s.Seconds.Describe)
	}
	_, d := p.Scores.Dims()
	if r, c := a.Result.A.Dims(); r != 2 || c != d {
		t.Errorf("cluster pictures %d×%d, want 2×%d (PCA scores)", r, c, d)
	}
	for _, tc := range []struct {
		req  pipeline.Request
		want string
	}{
		{pipeline.Request{Algorithm: algorithms.MustLookup("stepwise"), Describe: pipeline.Description{Kind: pipeline.FeaturesWords}, Options: learn.Options{Restarts: 1}}, "work with the clustering learners"},
		{pipeline.Request{Algorithm: algorithms.MustLookup("kmeans"), Describe: pipeline.Description{Kind: "sift"}, Options: learn.Options{Restarts: 1}}, "features must be one of pca, histogram, words"},
		{pipeline.Request{Algorithm: algorithms.MustLookup("kmeans"), Describe: pipeline.Description{Kind: pipeline.FeaturesWords, Words: -2}, Options: learn.Options{Restarts: 1}}, "words must be ≥ 1"},
		// The window's path: KL and the I-divergence need non-negative rows, refused up front.
		{pipeline.Request{Algorithm: algorithms.MustLookup("dpmeans"), Options: learn.Options{Divergence: "kl", Restarts: 1}}, "--divergence kl needs non-negative rows, which PCA scores are not: add --features histogram"},
		{pipeline.Request{Algorithm: algorithms.MustLookup("hardhdp"), Describe: pipeline.Description{Kind: pipeline.FeaturesPCA}, Options: learn.Options{Divergence: "idiv", Restarts: 1}}, "add --features histogram"},
	} {
		if err := pipeline.ValidateRequest(tc.req); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.req.Describe, err, tc.want)
		}
	}
	if _, err := result.RunOn(ctx, p, algorithms.MustLookup("kfeatures"), pipeline.Description{Kind: pipeline.FeaturesHistogram}, learn.Options{K: 2, Restarts: 1}, nil); err == nil {
		t.Errorf("kfeatures ran on histograms")
	}
}

// TestSavedKeepsTheDescription: a clustering of colour histograms saved and opened again
// remembers what it read, so Run again reads the same.
func TestSavedKeepsTheDescription(t *testing.T) {
	root := t.TempDir()
	writeShadePNGs(t, filepath.Join(root, "dark"), 20, 1, "a.png", "b.png")
	writeShadePNGs(t, filepath.Join(root, "light"), 220, 2, "c.png", "d.png")
	ctx := context.Background()
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Dir: root}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := result.RunOn(ctx, p, algorithms.MustLookup("dpmeans"), pipeline.Description{Kind: pipeline.FeaturesWords, Words: 7}, learn.Options{K: 2, Restarts: 2, Seed: 1, Divergence: "kl"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "words"+saved.Ext)
	if err := saved.Save(a, path, pipeline.LoadChoices{PCA: "100"}); err != nil {
		t.Fatal(err)
	}
	s, err := saved.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	req, err := s.Request()
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Restore(p)
	if err != nil {
		t.Fatal(err)
	}
	want := pipeline.Description{Kind: pipeline.FeaturesWords, Words: 7}
	if s.Describe != want || req.Describe != want || r.Description != want || saved.SummaryOf(r).Features != pipeline.FeaturesWords {
		t.Errorf("saved %+v, request %+v, restored %+v", s.Describe, req.Describe, r.Description)
	}
}
