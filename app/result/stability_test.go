package result

import (
	"context"
	"slices"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/internal/accuracy"
)

// TestStabilitySeparatesObjectsFromNoise: on the tabletop sample the five features
// stepwise finds (the table and four objects) claim the same images from every held-out
// half; K-features asked for eight mixes the objects with the noise, and some of its
// features claim other images when drawn from the other half. The figures are the same
// for 1 and 8 workers; clusterings are not checked.
func TestStabilitySeparatesObjectsFromNoise(t *testing.T) {
	accuracy.Check(t)
	ctx := context.Background()
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Sample: "tabletop"}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := RunOn(ctx, p, algorithms.MustLookup("stepwise"), pipeline.Description{}, learn.Options{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Stability) != 5 || slices.Min(a.Stability) != 1 {
		t.Errorf("the table and its objects: stability %v, want 1 for each of 5", a.Stability)
	}
	// Another K of the path, and the other reading, are checked on their own columns.
	for _, e := range a.Path() {
		if e.K == a.Result.K {
			continue
		}
		b, err := a.AtK(e.K)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Stability) != e.K {
			t.Errorf("K = %d of the path: stability %v", e.K, b.Stability)
		}
		if o := b.SwitchReading(); o != b && len(o.Stability) != e.K {
			t.Errorf("K = %d as found: stability %v", e.K, o.Stability)
		}
	}
	var byWorkers [][]float64
	for _, workers := range []int{1, 8} {
		b, err := RunOn(ctx, p, algorithms.MustLookup("kfeatures"), pipeline.Description{}, learn.Options{K: 8, Restarts: 40, Seed: 1, Workers: workers}, nil)
		if err != nil {
			t.Fatal(err)
		}
		byWorkers = append(byWorkers, b.Stability)
	}
	t.Logf("K = 8: stability %v", byWorkers[0])
	if len(byWorkers[0]) != 8 || slices.Min(byWorkers[0]) > 0.5 {
		t.Errorf("K = 8 on four objects: stability %v, want a feature at ≤ 50%%", byWorkers[0])
	}
	if !slices.Equal(byWorkers[0], byWorkers[1]) {
		t.Errorf("stability differs with 1 and 8 workers: %v, %v", byWorkers[0], byWorkers[1])
	}
	if c, err := RunOn(ctx, p, algorithms.MustLookup("kmeans"), pipeline.Description{}, learn.Options{K: 4, Restarts: 10, Seed: 1}, nil); err != nil || c.Stability != nil {
		t.Errorf("k-means: %v, stability %v", err, c.Stability)
	}
}
