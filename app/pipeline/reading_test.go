package pipeline_test

import (
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/app/pipeline"
	"featurelab/app/saved"
	"featurelab/internal/accuracy"
)

// TestSwitchReading: a stepwise run on the built-in sample shows the readable form — a
// base owned by every image, each other feature owned by at most half — and keeps the
// learner's own; switching shows that one, with the same fit, the codes and the summary
// following, and switching back restores the readable form exactly. A saved analysis
// keeps both readings and which is shown.
func TestSwitchReading(t *testing.T) {
	accuracy.Check(t)
	a, err := tabletopStepwise()
	if err != nil {
		t.Fatal(err)
	}
	if a.AsFound || a.Other == nil || saved.SummaryOf(a).Reading != "readable" {
		t.Fatalf("as found %v, other %v, reading %q", a.AsFound, a.Other != nil, saved.SummaryOf(a).Reading)
	}
	n, k := a.Result.Z.Dims()
	for j := 0; j < k; j++ {
		owners := 0
		for i := 0; i < n; i++ {
			owners += int(a.Result.Z.At(i, j))
		}
		if (j == 0 && owners != n) || (j > 0 && 2*owners > n) {
			t.Errorf("readable feature %d owned by %d of %d images", j, owners, n)
		}
	}
	b := a.SwitchReading()
	if !b.AsFound || saved.SummaryOf(b).Reading != "as found" || mat.Equal(b.Result.Z, a.Result.Z) || slices.Equal(b.Codes(), a.Codes()) {
		t.Fatalf("switched: as found %v, reading %q, same Z %v", b.AsFound, saved.SummaryOf(b).Reading, mat.Equal(b.Result.Z, a.Result.Z))
	}
	var fa, fb mat.Dense
	fa.Mul(a.Result.Z, a.Result.A)
	fb.Mul(b.Result.Z, b.Result.A)
	if !mat.EqualApprox(&fa, &fb, 1e-6) {
		t.Errorf("the two readings fit differently")
	}
	if c := b.SwitchReading(); c.AsFound || !mat.Equal(c.Result.Z, a.Result.Z) || !mat.Equal(c.Result.A, a.Result.A) {
		t.Errorf("switching back did not restore the readable form")
	}
	if a.AsFound || b.Result == a.Result {
		t.Errorf("SwitchReading changed its receiver or shares its result")
	}

	path := filepath.Join(t.TempDir(), "found"+saved.Ext)
	if err := saved.Save(b, path, pipeline.LoadChoices{PCA: "100"}); err != nil {
		t.Fatal(err)
	}
	s, err := saved.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Restore(b.Prepared)
	if err != nil {
		t.Fatal(err)
	}
	if !r.AsFound || r.Other == nil || !mat.Equal(r.Result.Z, b.Result.Z) || !mat.Equal(r.Other.Z, a.Result.Z) {
		t.Errorf("reopened: as found %v, other %v", r.AsFound, r.Other != nil)
	}
}
