package app_test

import (
	"context"
	"image"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/algorithms/segment"
	"featurelab/app"
	"featurelab/app/jobs"
	"featurelab/app/pipeline"
	"featurelab/app/saved"
	"featurelab/internal/accuracy"
)

// cardsLoad is a small load of the built-in card deck: the flows are the question here,
// not what the learners find in it.
var cardsLoad = pipeline.LoadChoices{Colour: pipeline.ColourAuto, Size: "30x42", PCA: "8"}

// TestFlowsFromLoadToApply goes through the window's flows as a user's clicks would: open
// the card deck, run K-features, look at K = 3 of a stepwise path and at the other
// reading, save the analysis and open the deck again with it restored, code a folder with
// it, and segment one of its pictures.
func TestFlowsFromLoadToApply(t *testing.T) {
	ctx := context.Background()
	req, err := cardsLoad.Request(pipeline.Source{Sample: "cards"})
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	progress := func(p jobs.Progress) { stages = append(stages, p.Stage) }
	var previewed int
	l, err := app.Load(ctx, pipeline.PrepareInStages, req, progress, func(names []string, _ []image.Image) { previewed = len(names) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(l.Prepared.Data.Names)
	if n < 2 || previewed != n || !(l.Lambda2 > 0) || l.Restored != nil || l.RestoreErr != nil || len(stages) == 0 {
		t.Fatalf("load: %d pictures, %d previewed, λ² %v, restored %v (%v), %d reports", n, previewed, l.Lambda2, l.Restored, l.RestoreErr, len(stages))
	}

	pres, err := app.Run(ctx, l.Prepared, algorithms.MustLookup("kfeatures"), pipeline.Description{}, learn.Options{K: 3, Restarts: 2, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a := pres.Analysis; a.Result.K != 3 || a.Prepared != l.Prepared {
		t.Fatalf("run: K = %d on %p, want 3 on %p", a.Result.K, a.Prepared, l.Prepared)
	}
	if s := app.RunSummary(pres.Analysis); !strings.HasPrefix(s, "K-features: K = 3, objective ") {
		t.Errorf("summary %q", s)
	}

	step, err := app.Run(ctx, l.Prepared, algorithms.MustLookup("stepwise"), pipeline.Description{}, learn.Options{MaxK: 4, Restarts: 2, Seed: 1, KFrom: learn.KFromWidest}, nil)
	if err != nil {
		t.Fatal(err)
	}
	at, err := app.PathAt(step.Analysis, 1)
	if err != nil || at.Analysis.Result.K != 1 {
		t.Fatalf("K = 1 of the path: %v, %v", at, err)
	}
	if _, err := app.PathAt(step.Analysis, 99); err == nil {
		t.Error("a K the path never tried was shown")
	}
	if step.Analysis.Other != nil {
		other := app.OtherReading(step.Analysis)
		if other.Analysis.AsFound == step.Analysis.AsFound {
			t.Error("the other reading reads as the first")
		}
	}

	file := filepath.Join(t.TempDir(), "cards"+saved.Ext)
	if err := saved.Save(pres.Analysis, file, cardsLoad); err != nil {
		t.Fatal(err)
	}
	s, err := saved.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	again, err := app.Load(ctx, pipeline.PrepareInStages, req, nil, nil, s)
	if err != nil || again.RestoreErr != nil || again.Restored == nil {
		t.Fatalf("reopened with the analysis: %v, %v", err, again)
	}
	if g, w := again.Restored.Analysis.Result.K, pres.Analysis.Result.K; g != w || again.Restored.Analysis.Prepared != again.Prepared {
		t.Fatalf("restored K = %d, want %d, on the data set it was loaded with", g, w)
	}

	// A folder of two pictures of the deck's size, coded with the features.
	dir := t.TempDir()
	for i, shade := range []uint8{40, 200} {
		img := image.NewRGBA(image.Rect(0, 0, 30, 42))
		for j := range img.Pix {
			img.Pix[j] = shade
		}
		accuracy.WriteImage(t, filepath.Join(dir, []string{"a.jpg", "b.jpg"}[i]), img)
	}
	applied, err := app.Apply(ctx, pres.Analysis, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(applied.Names); got != 2 {
		t.Fatalf("applied to %d pictures, want 2", got)
	}
	if _, err := app.Apply(ctx, pres.Analysis, filepath.Join(dir, "none"), nil); err == nil {
		t.Error("a folder that is not there was coded")
	}

	img := image.NewRGBA(image.Rect(0, 0, 24, 16))
	for y := range 16 {
		for x := range 24 {
			img.Set(x, y, color.RGBA{uint8(200 * (x / 12)), 90, 30, 255})
		}
	}
	seg, pics, err := app.Segment(ctx, img, "two halves.png", segment.Options{Method: segment.MethodKMeans, K: 2, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if seg.Path != "two halves.png" || seg.Result == nil || pics.Segments == nil || pics.Boundaries == nil || pics.Segments.Bounds() != img.Bounds() {
		t.Fatalf("segmentation %+v, pictures %+v", seg, pics)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := app.Segment(cancelled, img, "x.png", segment.Options{Method: segment.MethodKMeans, K: 2, Seed: 1}, nil); err == nil {
		t.Error("a cancelled segmentation finished")
	}
}
