package result

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/internal/accuracy"
	"featurelab/internal/scenes"
)

// TestExposureIsNoFeature: on a scene folder whose pictures are taken within ±20 % of one
// exposure, the defaults measure each picture's gain (within 2 % of the truth, up to the
// reference's own), divide it out before the PCA and count the four objects, each owned
// by the pictures that show it; kept as taken (pipeline.ExposureNone, the papers' model) the
// exposure costs features and objects read backwards.
func TestExposureIsNoFeature(t *testing.T) {
	accuracy.Check(t)
	ctx := context.Background()
	data := filepath.Dir(accuracy.SharedData(t, "bsds500-train"))
	spec, err := scenes.Random(data, 101)
	if err != nil {
		t.Fatal(err)
	}
	spec.Exposure = 0.2
	dir, folder := accuracy.WriteScene(t, spec)
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Exposure.Divided || p.Exposure.Measured.Count() != len(folder.Names) {
		t.Fatalf("exposure divided %v, %d of %d pictures measured", p.Exposure.Divided, p.Exposure.Measured.Count(), len(folder.Names))
	}
	// The data's names are in natural order, as Write numbers them.
	scale := p.Exposure.Gains()[0] / folder.Gains[0]
	for i, g := range p.Exposure.Gains() {
		if want := folder.Gains[i] * scale; math.Abs(g/want-1) > 0.02 {
			t.Errorf("%s: gain %.4f, want %.4f", p.Data.Names[i], g, want)
		}
	}
	truth := truthCodes(t, os.DirFS(dir), p.Data.Names)
	for _, mode := range []string{pipeline.ExposureAuto, pipeline.ExposureNone} {
		prep := p
		if mode == pipeline.ExposureNone {
			if prep, err = pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA, Exposure: pipeline.ExposureNone}, nil); err != nil {
				t.Fatal(err)
			}
		}
		a, err := RunOn(ctx, prep, algorithms.MustLookup("stepwise"), pipeline.Description{}, learn.Options{Restarts: 100, Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		found, wrong := misread(a, truth, folder.Objects)
		right := a.Result.K == 5 && found == 4 && len(wrong) == 0
		if right != (mode == pipeline.ExposureAuto) {
			t.Errorf("exposure %s: K = %d, %d of 4 objects found, misread %v", mode, a.Result.K, found, wrong)
		}
	}
}
