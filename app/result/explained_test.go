package result

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/internal/accuracy"
)

// TestExplained: on four images that are a base and one feature owned by two of them,
// the feature explains all the variation and the base none; a feature flipped explains
// what it did; and on the built-in tabletop the four objects explain most of the data,
// none of them nothing.
func TestExplained(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{0, 1, 0, 1, 2, 1, 2, 1})
	a := &Analysis{Prepared: &pipeline.Prepared{Scores: X}, Algorithm: algorithms.MustLookup("kfeatures"), Result: &learn.Result{K: 2,
		Z: mat.NewDense(4, 2, []float64{1, 0, 1, 0, 1, 1, 1, 1}),
		A: mat.NewDense(2, 2, []float64{0, 1, 2, 0})}}
	if got := a.Explained(); got[0] != 0 || math.Abs(got[1]-1) > 1e-12 {
		t.Errorf("base and feature explain %v, want [0 1]", got)
	}
	flipped := &Analysis{Prepared: a.Prepared, Algorithm: algorithms.MustLookup("kfeatures"), Result: &learn.Result{K: 2,
		Z: mat.NewDense(4, 2, []float64{1, 1, 1, 1, 1, 0, 1, 0}),
		A: mat.NewDense(2, 2, []float64{2, 1, -2, 0})}}
	if got := flipped.Explained(); math.Abs(got[1]-1) > 1e-12 {
		t.Errorf("the flipped feature explains %v, want 1", got[1])
	}
	t.Run("tabletop", func(t *testing.T) {
		accuracy.Check(t)
		tt, err := Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: "tabletop"}, PCA: pipeline.DefaultPCA,
			Algorithm: algorithms.MustLookup("kfeatures"), Options: learn.Options{K: 5, Restarts: 20, Seed: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for k, e := range tt.Explained() {
			if k != tt.BaseIndex() && !(e > 0.05) {
				t.Errorf("feature %d explains %.3f", k+1, e)
			}
			sum += e
		}
		if !(sum > 0.5 && sum <= 1) {
			t.Errorf("the features explain %.3f together", sum)
		}
	})
}
