package saved_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/app/saved"
	"featurelab/internal/accuracy"
)

// TestJSONDescribesEachFeature: the summary of stepwise on the tabletop sample lists every
// feature in column order — the base first, with no effect and explaining nothing, then
// four features that add, each explaining a share of the data — with the owners the
// codes give, and every one of them stable on every held-out half.
func TestJSONDescribesEachFeature(t *testing.T) {
	accuracy.Check(t)
	a, err := result.Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: "tabletop"},
		PCA: pipeline.DefaultPCA, Algorithm: algorithms.MustLookup("stepwise"), Options: learn.Options{Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		K          int    `json:"k"`
		KNote      string `json:"k_note"`
		PerFeature []struct {
			Feature    int      `json:"feature"`
			Base       bool     `json:"base"`
			Effect     string   `json:"effect"`
			Owners     int      `json:"owners"`
			Explained  float64  `json:"explained"`
			Stability  *float64 `json:"stability"`
			Separation *float64 `json:"separation"`
		} `json:"per_feature"`
	}
	summaryJSON(t, a, &got)
	if got.K != 5 || len(got.PerFeature) != 5 {
		t.Fatalf("K = %d with %d features described", got.K, len(got.PerFeature))
	}
	owners := a.Owners()
	for k, f := range got.PerFeature {
		if f.Feature != k+1 || f.Owners != owners[k] || f.Stability == nil || *f.Stability != 1 {
			t.Errorf("feature %d: %+v, owners want %d", k+1, f, owners[k])
		}
		if k == 0 {
			if !f.Base || f.Effect != "" || f.Explained != 0 || f.Separation != nil {
				t.Errorf("the base reads %+v", f)
			}
			continue
		}
		if f.Base || f.Effect != "adds" || !(f.Explained > 0.05) || f.Separation == nil || *f.Separation < features.SeparationClear || got.KNote != "" {
			t.Errorf("feature %d reads %+v", k+1, f)
		}
	}
}

// TestJSONSaysWhenNoKStandsOut: on the ORL faces the K that stepwise picks off its λ²
// path counts nothing, most of its features varying by degrees, and the JSON's k_note
// says so; on the tabletop sample it is absent (TestJSONDescribesEachFeature's run).
func TestJSONSaysWhenNoKStandsOut(t *testing.T) {
	accuracy.Check(t)
	dir := accuracy.SharedData(t, "orl_faces")
	a, err := result.Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA,
		Algorithm: algorithms.MustLookup("stepwise"), Options: learn.Options{Restarts: 20, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		K     int    `json:"k"`
		KNote string `json:"k_note"`
		KFrom string `json:"k_from"`
	}
	summaryJSON(t, a, &got)
	if !strings.HasPrefix(got.KNote, "No K stands out: ") {
		t.Errorf("K = %d on the faces, separations %.2f, k_note %q", got.K, a.Separation(), got.KNote)
	}
	if got.KFrom != learn.KFromObjects {
		t.Errorf("k_from %q, want %q: the default rule", got.KFrom, learn.KFromObjects)
	}
}

// summaryJSON writes a's summary JSON, as analyze --json does, and reads it into got.
func summaryJSON(t *testing.T, a *result.Analysis, got any) {
	t.Helper()
	var buf bytes.Buffer
	if err := saved.WriteJSON(&buf, saved.SummaryOf(a)); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(buf.Bytes(), got); err != nil {
		t.Fatal(err)
	}
}
