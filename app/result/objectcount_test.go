package result

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/algorithms/selection"
	"featurelab/app/pipeline"
	"featurelab/imgproc"
	"featurelab/internal/accuracy"
	"featurelab/internal/scenes"
)

// TestKFromObjectsCountsTheSceneObjects is the default K on folders built like a user's
// (internal/scenes: a real photo, two cards, a shadow darker than the scene and a patch
// of stripes, each in 20–90 % of the pictures, ±5 % exposure, ±1 px jitter, JPEG): on
// the three Sets, stepwise with no λ² gives K = 5, the base and one feature per object,
// owned by the pictures that show it (not its complement) on at least 98 % of them. The
// papers' rule, the widest λ² interval, gave K = 10, 10 and 13 (KFromWidest, checked
// too, so that the test fails should the two rules ever agree by accident).
func TestKFromObjectsCountsTheSceneObjects(t *testing.T) {
	accuracy.Check(t)
	ctx := context.Background()
	data := filepath.Dir(accuracy.SharedData(t, "bsds500-train"))
	for si, spec := range scenes.Sets(data) {
		t.Run(fmt.Sprint("set ", si+1), func(t *testing.T) {
			dir, folder := accuracy.WriteScene(t, spec)
			p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA}, nil)
			if err != nil {
				t.Fatal(err)
			}
			a, err := RunOn(ctx, p, algorithms.MustLookup("stepwise"), pipeline.Description{}, learn.Options{Restarts: 100, Seed: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			truth := truthCodes(t, os.DirFS(dir), a.Data.Names)
			if a.Result.K != 5 || a.BaseIndex() != 0 {
				t.Errorf("K = %d with base %d, want 5 with the base first", a.Result.K, a.BaseIndex())
			}
			for j, m := range scenes.MatchObjects(truth, learnedCodes(a)) {
				if m.Agreement < 0.98 || m.Complement {
					t.Errorf("%s: feature %d agrees on %.3f of the pictures (complement %v)", folder.Objects[j], m.Feature+1, m.Agreement, m.Complement)
				}
			}
			widest, err := RunOn(ctx, p, algorithms.MustLookup("stepwise"), pipeline.Description{}, learn.Options{Restarts: 100, Seed: 1, KFrom: learn.KFromWidest}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if widest.Result.K == 5 {
				t.Errorf("the widest λ² interval gives K = 5 too: this folder no longer tells the rules apart")
			}
			// Both are points of the one path the learner walked.
			if len(a.Path()) == 0 || a.Path()[len(a.Path())-1].K < 5 {
				t.Errorf("the λ² path %v does not reach K = 5", a.Path())
			}
		})
	}
}

// TestKFromObjectsKeepsTheWidestWhenNothingCounts: on faces, whose features vary by
// degrees, no K counts objects; the rule keeps the widest λ² interval's K and KNote says
// so, rather than picking the few features that happen to be on/off.
func TestKFromObjectsKeepsTheWidestWhenNothingCounts(t *testing.T) {
	accuracy.Check(t)
	ctx := context.Background()
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Dir: accuracy.SharedData(t, "orl_faces")}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := RunOn(ctx, p, algorithms.MustLookup("stepwise"), pipeline.Description{}, learn.Options{Restarts: 20, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.KNote() == "" {
		t.Errorf("K = %d on faces, and no note that no K stands out", a.Result.K)
	}
	if a.Result.K < 5 {
		t.Errorf("K = %d on faces: the rule fell back to a few on/off features", a.Result.K)
	}
}

// TestSmoothedScoresAreTheBlurredPictures: the smoothed scores' distances are those of
// the pictures blurred (up to the PCA's scale), which is what makes a fit on them a fit
// of the blurred pictures.
func TestSmoothedScoresAreTheBlurredPictures(t *testing.T) {
	ctx := context.Background()
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Sample: "dice"}, PCA: 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	Y, err := p.Objects().Smoothed(nil)
	if err != nil {
		t.Fatal(err)
	}
	ds := p.Data
	blurred := func(i int) []float64 {
		pix := p.PCA.Inverse(p.Scores.RawRowView(i), nil)
		mean := p.PCA.Inverse(make([]float64, p.PCA.D), nil)
		for j := range pix {
			pix[j] = (pix[j] - mean[j]) / p.PCA.Scale
		}
		return imgproc.SmoothPictures(pix, ds.Width, ds.Height, ds.Channels, 1, selection.Blur, 1)
	}
	for _, pair := range [][2]int{{0, 1}, {3, 17}, {40, 99}} {
		a, b := blurred(pair[0]), blurred(pair[1])
		var want float64
		for j := range a {
			want += (a[j] - b[j]) * (a[j] - b[j])
		}
		var got float64
		ya, yb := Y.RawRowView(pair[0]), Y.RawRowView(pair[1])
		for j := range ya {
			got += (ya[j] - yb[j]) * (ya[j] - yb[j])
		}
		if diff := got - want; diff > 1e-9*want || diff < -1e-9*want {
			t.Errorf("images %v: ‖y_i − y_j‖² = %.12g, the blurred pictures' %.12g", pair, got, want)
		}
	}
}

// checkSeparationsReadEachFitsShifts: where the count of objects took each fit's own
// small shifts out of what it read, the window reads every K of the path so too (AtK),
// not through the shifts of the K the run chose.
func checkSeparationsReadEachFitsShifts(t *testing.T, a *Analysis) {
	t.Helper()
	for _, e := range a.Path() {
		if e.K == a.Result.K {
			continue
		}
		b, err := a.AtK(e.K)
		if err != nil {
			t.Fatal(err)
		}
		z := b.Result.Z
		own := features.ProjectOut(a.Seen, a.Objects().ShiftNuisance(z, nil))
		chosen := features.ProjectOut(a.Seen, a.Objects().ShiftNuisance(a.Result.Z, nil))
		want, other := separationIn(own, z), separationIn(chosen, z)
		got := b.Separation()
		if !sameFloats(got, want, 1e-9) {
			t.Errorf("K = %d: separations %.4f, want %.4f, read through its own shifts", e.K, got, want)
		}
		if sameFloats(got, other, 1e-9) && !sameFloats(want, other, 1e-9) {
			t.Errorf("K = %d: separations read through the chosen K's shifts", e.K)
		}
	}
}

// separationIn is each feature's separation (features.Separation) in X, A fitted to Z.
func separationIn(X, Z *mat.Dense) []float64 {
	A, ok := features.LeastSquaresA(Z, X)
	if !ok {
		return nil
	}
	return features.Separation(X, Z, A)
}

// sameFloats reports whether a and b agree to tol, NaN matching NaN.
func sameFloats(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.IsNaN(a[i]) != math.IsNaN(b[i]) || math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}
