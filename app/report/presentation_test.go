package report

import (
	"context"
	"fmt"
	"image"
	"slices"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/app/saved"
	"featurelab/imgproc"
	"featurelab/internal/accuracy"
)

// TestPresentationReconstructions checks the shortcut of Present — one reconstruction
// per distinct code, a block of codes at a time, straight at thumbnail size from the
// shrunk PCA — against each image reconstructed on its own at full size and shrunk,
// and that the thumbnails kept from a window's load are the ones shown. The dice
// pictures fit a thumbnail as they are; the tabletop photos are shrunk.
func TestPresentationReconstructions(t *testing.T) {
	accuracy.Check(t)
	tests := []struct {
		sample string
		pca    int
	}{
		{"dice", 20},
		{"tabletop", 100},
	}
	for _, tt := range tests {
		p, err := pipeline.Prepare(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: tt.sample}, PCA: tt.pca}, nil)
		if err != nil {
			t.Fatal(err)
		}
		kept := pipeline.Thumbnails(p.Data)
		p.KeepThumbnails(kept)
		a, err := result.Run(context.Background(), p, algorithms.MustLookup("kmeans"), learn.Options{K: 5, Restarts: 3, Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		pres := Present(a)
		if len(pres.Recon) != len(p.Data.Names) {
			t.Fatalf("%s: %d reconstructions for %d images", tt.sample, len(pres.Recon), len(p.Data.Names))
		}
		worst := 0
		for i := range pres.Recon {
			want := imgproc.Thumbnail(a.Reconstruction(i), pipeline.ThumbnailSize)
			worst = max(worst, maxPixelDiff(pres.Recon[i], want))
			if pres.Thumbs[i] != kept[i] {
				t.Fatalf("%s image %d: thumbnail rendered again instead of the kept one", tt.sample, i)
			}
		}
		t.Logf("%s: reconstructions within %d levels of the direct ones", tt.sample, worst)
		if worst > 1 { // 8-bit rounding, and shrinking before or after clamping to [0, 1]
			t.Errorf("%s: a reconstruction differs by %d levels from the direct one", tt.sample, worst)
		}
	}
}

// maxPixelDiff is the largest difference of any 8-bit channel of a and b (255 when the
// sizes differ).
func maxPixelDiff(a, b image.Image) int {
	if a.Bounds() != b.Bounds() {
		return 255
	}
	worst := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c1 := [4]uint32{}
			c2 := [4]uint32{}
			c1[0], c1[1], c1[2], c1[3] = a.At(x, y).RGBA()
			c2[0], c2[1], c2[2], c2[3] = b.At(x, y).RGBA()
			for k := range c1 {
				d := int(c1[k]>>8) - int(c2[k]>>8)
				worst = max(worst, d, -d)
			}
		}
	}
	return worst
}

// TestObjectiveText: the penalised objective is shown only for the learners that
// minimise one, and then with the λ² that was paid.
func TestObjectiveText(t *testing.T) {
	res := &learn.Result{K: 3, Objective: 100, BPObjective: 130, Lambda2: 10}
	for _, tc := range []struct {
		algo, want string
	}{
		{"kfeatures", "objective 100"},
		{"ibp", "objective 100"},
		{"kmeans", "objective 100"},
		{"bpmeans", "objective 100 (with λ² = 10 per feature: 130)"},
		{"stepwise", "objective 100 (with λ² = 10 per feature: 130)"},
		{"dpmeans", "objective 100 (with λ² = 10 per cluster: 130)"},
	} {
		a := &result.Analysis{Algorithm: algorithms.MustLookup(tc.algo), Result: res}
		if got := saved.ObjectiveText(a); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.algo, got, tc.want)
		}
	}
}

// TestObjectsReadAsAdditions: stepwise with no λ² on the built-in tabletop gives the base
// and its four objects, each read as what the images that own it add to the base,
// whether the object is lighter or darker than the table.
func TestObjectsReadAsAdditions(t *testing.T) {
	accuracy.Check(t)
	a, err := result.Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: "tabletop"}, PCA: pipeline.DefaultPCA,
		Algorithm: algorithms.MustLookup("stepwise"), Options: learn.Options{Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, f := range a.Features() {
		labels = append(labels, FeatureLabel(f))
	}
	want := []string{"base", "#2 adds", "#3 adds", "#4 adds", "#5 adds"}
	if !slices.Equal(labels, want) {
		t.Errorf("features read %v, want %v", labels, want)
	}
}

// TestFeaturesWithoutABaseAreNotClusters: the tetris blocks have no base; their features
// read against the mean image — each block adds itself to it — and are not called
// clusters (a result without a base read "cluster #1" once the label stopped following
// the pixels' sign).
func TestFeaturesWithoutABaseAreNotClusters(t *testing.T) {
	a, err := result.Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: "tetris"}, PCA: 0,
		Algorithm: algorithms.MustLookup("stepwise"), Options: learn.Options{Lambda2: 1, Restarts: 20, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.BaseIndex() >= 0 {
		t.Fatalf("tetris has a base, feature %d", a.BaseIndex())
	}
	for _, f := range a.Features() {
		if want := fmt.Sprintf("#%d adds", f.Index+1); FeatureLabel(f) != want {
			t.Errorf("feature %d reads %q, want %q", f.Index, FeatureLabel(f), want)
		}
	}
}
