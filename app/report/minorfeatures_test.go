package report

import (
	"context"
	"image"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
)

// TestRankFeatures: a sampler's features come largest first after the base, those
// explaining under 1% last and counted minor; a result of more than 12 features is ranked
// and folded beyond the 12th; a small one of another learner keeps its order, and
// clusters are never ranked.
func TestRankFeatures(t *testing.T) {
	signed := image.NewGray(image.Rect(0, 0, 1, 1))
	feats := func(shares ...float64) []result.Feature {
		out := []result.Feature{{Index: 0, Base: true}}
		for k, s := range shares {
			out = append(out, result.Feature{Index: k + 1, Signed: signed, Explained: s})
		}
		return out
	}
	order := func(fs []result.Feature) []int {
		var out []int
		for _, f := range fs {
			out = append(out, f.Index)
		}
		return out
	}
	many := make([]float64, 14)
	for k := range many {
		many[k] = 0.02 + 0.001*float64(k) // the last is the largest
	}
	for _, tc := range []struct {
		algo      string
		shares    []float64
		want      []int
		wantMinor int
	}{
		{"ibp", []float64{0.005, 0.3, 0.1, 0.02}, []int{0, 2, 3, 4, 1}, 1},
		{"ibp", []float64{0.2, 0.2}, []int{0, 1, 2}, 0},
		{"kfeatures", []float64{0.005, 0.3, 0.1, 0.02}, []int{0, 1, 2, 3, 4}, 0},
		{"kfeatures", many, []int{0, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 2},
		{"kmeans", many, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, 0},
	} {
		in := feats(tc.shares...)
		before := order(in)
		got, minor := RankFeatures(&result.Analysis{Algorithm: algorithms.MustLookup(tc.algo)}, in)
		if !slices.Equal(order(got), tc.want) || minor != tc.wantMinor {
			t.Errorf("%s %v: order %v, %d minor; want %v, %d", tc.algo, tc.shares, order(got), minor, tc.want, tc.wantMinor)
		}
		if !slices.Equal(order(in), before) {
			t.Errorf("%s: RankFeatures reordered its argument", tc.algo)
		}
	}
	if MinorText(0) != "" || !strings.HasPrefix(MinorText(1), "1 minor feature (") || !strings.HasPrefix(MinorText(3), "3 minor features (each under 1%") {
		t.Errorf("MinorText: %q, %q, %q", MinorText(0), MinorText(1), MinorText(3))
	}
}

// TestUnsureText: the bits between 10% and 90% are named, nearest ½ first, with their
// probabilities; a code of sure bits says so; no probabilities, nothing.
func TestUnsureText(t *testing.T) {
	for _, tc := range []struct {
		probs []float64
		want  string
	}{
		{nil, ""},
		{[]float64{0, 1, 0.95, 0.02}, "every bit sure (90% or more)"},
		{[]float64{1, 0.8, 0, 0.45}, "unsure of #4 (owned in 45% of the sweeps), #2 (80%)"},
		{[]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, "unsure of #1 (owned in 50% of the sweeps), #2 (50%), #3 (50%), #4 (50%), #5 (50%), #6 (50%) and 2 more"},
	} {
		if got := UnsureText(tc.probs); got != tc.want {
			t.Errorf("UnsureText(%v) = %q, want %q", tc.probs, got, tc.want)
		}
	}
}

// TestGridFoldsMinorFeatures: the dice with K-features at K = 3, read as a sampler's
// result and given a fourth feature a thousandth the size of another, export a grid
// that leaves the tiny one out and says so on a line under the title; asked for all
// features, the grid draws it and has no such line.
func TestGridFoldsMinorFeatures(t *testing.T) {
	a, err := result.Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: "dice"}, PCA: 20,
		Algorithm: algorithms.MustLookup("kfeatures"), Options: learn.Options{K: 3, Restarts: 3, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := *a
	res := *a.Result
	n, k := res.Z.Dims()
	_, d := res.A.Dims()
	res.Z, res.A, res.K = mat.NewDense(n, k+1, nil), mat.NewDense(k+1, d, nil), k+1
	for i := range n {
		copy(res.Z.RawRowView(i), a.Result.Z.RawRowView(i))
		res.Z.Set(i, k, float64(i%2))
	}
	for j := range k {
		copy(res.A.RawRowView(j), a.Result.A.RawRowView(j))
	}
	for c, v := range a.Result.A.RawRowView(k - 1) {
		res.A.Set(k, c, v/1000)
	}
	b.Algorithm, b.Result, b.Stability = algorithms.MustLookup("ibp"), &res, nil
	ranked, minor := RankFeatures(&b, b.Features())
	if minor != 1 || ranked[len(ranked)-1].Index != k {
		t.Fatalf("%d minor features, the last %d; want 1, the tiny feature %d", minor, ranked[len(ranked)-1].Index, k)
	}
	folded, all := FeatureGrid(&b), FeatureGridOf(&b, true)
	if dh := folded.Bounds().Dy() - all.Bounds().Dy(); dh != 18 {
		t.Errorf("the folded grid is %d px taller than the whole one, want 18 (the line naming the minor feature)", dh)
	}
	inked := func(img *image.NRGBA, y0, y1 int) bool {
		for y := y0; y < y1; y++ {
			for x := range img.Bounds().Dx() {
				if img.NRGBAAt(x, y) != gridBackground {
					return true
				}
			}
		}
		return false
	}
	if !inked(folded, 45, 58) || inked(all, 45, 58) {
		t.Errorf("the line under the title: written %v in the folded grid, %v in the whole one; want true, false", inked(folded, 45, 58), inked(all, 45, 58))
	}
	if a := Present(&b); a.Minor != 1 || len(a.Features) != len(ranked) {
		t.Errorf("the presentation folds %d of %d features, want 1 of %d", a.Minor, len(a.Features), len(ranked))
	}
}
