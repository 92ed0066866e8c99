package pipeline

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/imgproc"
)

func TestCheckLearnable(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows [][]float64
		want string // "" for learnable
	}{
		{"one image", [][]float64{{0.1, 0.2}}, "1 image is too few to learn from: need at least 2"},
		{"black", [][]float64{{0, 0}, {0, 0}, {0, 0}}, "all 3 images are black: there is nothing to learn"},
		{"flat grey", [][]float64{{0.5, 0.5}, {0.5, 0.5}}, "all 2 images are one flat colour: there is nothing to learn"},
		{"identical", [][]float64{{0.1, 0.9}, {0.1, 0.9}, {0.1, 0.9}, {0.1, 0.9}}, "all 4 images are identical: there is nothing to learn"},
		{"last differs", [][]float64{{0.1, 0.9}, {0.1, 0.9}, {0.1, 0.8}}, ""},
		{"two black, one not", [][]float64{{0, 0}, {0, 0}, {0, 1e-9}}, ""},
	} {
		ds := &imgproc.Dataset{Names: make([]string, len(tc.rows)), Width: len(tc.rows[0]), Height: 1, Channels: 1}
		for _, r := range tc.rows {
			for _, v := range r {
				ds.Pixels = append(ds.Pixels, float32(v))
			}
		}
		err := checkLearnable(ds)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestRunProposesOrSaysWhyNot checks what the pipeline does when the user gives no λ²:
// DP-means gets a target K of at most N, and the feature learners choose their own from
// the λ² path, even on identical images.
func TestRunProposesOrSaysWhyNot(t *testing.T) {
	two := &Prepared{Scores: mat.NewDense(2, 2, []float64{1, 0, -1, 0})}
	a, err := two.RunOn(context.Background(), algorithms.MustLookup("dpmeans"), Description{}, learn.Options{Restarts: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatalf("dpmeans on 2 images without λ² or K: %v", err)
	}
	if !(a.Result.Lambda2 > 0) {
		t.Errorf("dpmeans proposed λ² = %v", a.Result.Lambda2)
	}
	same := &Prepared{Scores: mat.NewDense(3, 2, nil)}
	// The feature learners need no proposal: their λ² path has one K here, the base all
	// three share.
	for _, algo := range []string{"stepwise", "bpmeans", "collapsed"} {
		if a, err := same.RunOn(context.Background(), algorithms.MustLookup(algo), Description{}, learn.Options{Restarts: 3}, nil); err != nil || a.Result.K != 1 || a.Result.Objective != 0 {
			t.Errorf("%s on 3 identical images: %v", algo, err)
		}
	}
}
