package result

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/stat"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/internal/accuracy"
	"featurelab/internal/scenes"
)

// TestSeparationTellsObjectsFromExposure: on a photo folder where two cards come and go
// and the exposure changes by ±20 %, kept as taken (ExposureNone: by default it is
// divided out), a K-features fit with room for a third feature spends it on the exposure; the cards' features read on/off (separation ≥
// features.SeparationClear) and the exposure's gradual, its owners the brighter pictures.
func TestSeparationTellsObjectsFromExposure(t *testing.T) {
	accuracy.Check(t)
	data := filepath.Dir(accuracy.SharedData(t, "bsds500-train"))
	spec := scenes.Sets(data)[1]
	spec.Objects, spec.Exposure, spec.Jitter, spec.N = spec.Objects[:2], 0.2, 0, 80
	dir, folder := accuracy.WriteScene(t, spec)
	a, err := Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA, Algorithm: algorithms.MustLookup("kfeatures"),
		Options: learn.Options{K: 4, Restarts: 20, Seed: 1}, Exposure: pipeline.ExposureNone}, nil)
	if err != nil {
		t.Fatal(err)
	}
	truth := truthCodes(t, os.DirFS(dir), a.Data.Names)
	gain := map[string]float64{}
	for i, name := range folder.Names {
		gain[name] = folder.Gains[i]
	}
	sep := a.Separation()
	objects := map[int]bool{}
	for j, m := range scenes.MatchObjects(truth, learnedCodes(a)) {
		if m.Agreement < 0.95 {
			t.Fatalf("%s not found: %+v", folder.Objects[j], m)
		}
		objects[m.Feature] = true
		if !(sep[m.Feature] >= features.SeparationClear) {
			t.Errorf("%s (feature %d) separates by %.2f, want ≥ %v", folder.Objects[j], m.Feature+1, sep[m.Feature], features.SeparationClear)
		}
	}
	base := a.BaseIndex()
	for k := range sep {
		if k == base || objects[k] {
			continue
		}
		owns, gains := make([]float64, len(a.Data.Names)), make([]float64, len(a.Data.Names))
		for i, name := range a.Data.Names {
			owns[i], gains[i] = a.Result.Z.At(i, k), gain[name]
		}
		if c := stat.Correlation(owns, gains, nil); !(sep[k] < features.SeparationClear) || math.Abs(c) < 0.7 {
			t.Errorf("feature %d separates by %.2f, its owners' correlation with the exposure %.2f; want gradual and the exposure", k+1, sep[k], c)
		}
	}
	t.Logf("separations %.2f", sep)
}
