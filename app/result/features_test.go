package result

import (
	"context"
	"math"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/internal/accuracy"
)

func TestBrightness(t *testing.T) {
	for _, tc := range []struct {
		name          string
		without, with []float64
		want          string
	}{
		{"all brighter", []float64{0.1, 0.2}, []float64{0.3, 0.4}, Brightens},
		{"all darker", []float64{0.5, 0.5}, []float64{0.2, 0.4}, Darkens},
		{"mostly darker", []float64{0.5, 0.5, 0.5}, []float64{0.6, 0.1, 0.2}, Darkens},
		{"mostly brighter", []float64{0.5, 0.5, 0.5}, []float64{0.9, 0.9, 0.4}, Brightens},
	} {
		if got := brightness(tc.without, tc.with); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestGradualFeaturesBrightenOrDarken: on the ORL faces, whose features mostly vary by
// degrees, a gradual feature is captioned by what most of its change does (brightens,
// darkens), never as an object added or removed; an on/off one adds or removes.
func TestGradualFeaturesBrightenOrDarken(t *testing.T) {
	accuracy.Check(t)
	dir := accuracy.SharedData(t, "orl_faces")
	a, err := Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA, Algorithm: algorithms.MustLookup("stepwise"),
		Options: learn.Options{Restarts: 100, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gradual := 0
	for _, f := range a.Features() {
		if f.Base || math.IsNaN(f.Separation) {
			continue
		}
		onOff := f.Separation >= features.SeparationClear
		if !onOff {
			gradual++
		}
		object := f.Effect == Adds || f.Effect == Removes
		if object != onOff || f.Effect == "" {
			t.Errorf("feature %d (separation %.2f) reads %q", f.Index+1, f.Separation, f.Effect)
		}
	}
	if gradual < 5 {
		t.Errorf("%d gradual features, want the faces' most", gradual)
	}
}
