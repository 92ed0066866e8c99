package saved_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/result"
	"featurelab/app/saved"
)

// TestSavedAnalysisEncodes: a saved analysis keeps its encoder, which codes the images
// as the analysis did; a file whose encoder was tampered with is refused in one line.
func TestSavedAnalysisEncodes(t *testing.T) {
	ctx := context.Background()
	p, err := tabletop()
	if err != nil {
		t.Fatal(err)
	}
	a, err := result.Run(ctx, p, algorithms.MustLookup("stepwise"), learn.Options{Restarts: 10, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tabletop"+saved.Ext)
	if err := saved.Save(a, path, tabletopLoad); err != nil {
		t.Fatal(err)
	}
	s, err := saved.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Encoder == nil {
		t.Fatal("the saved analysis has no encoder")
	}
	codes, err := s.Encoder.Encode(ctx, a.Data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range codes {
		if c.Code != a.Codes()[i] {
			t.Errorf("%s: the reopened encoder codes %s, the analysis %s", c.Name, c.Code, a.Codes()[i])
		}
	}

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, key, value, want string }{
		{"mean cut short", "mean", `"AAAA"`, "encoder mean holds 0 numbers, want 57600"},
		{"not base64", "features", `"!!"`, "encoder features"},
		{"a NaN", "residual_limit", `"NaN"`, "residual limit"},
		{"another K", "k", `2`, "K = 2"},
		{"a prior without noise", "prior", `[0.5]`, "prior probabilities"},
		{"a negative noise", "noise", `-1`, "noise -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f map[string]any
			if err := json.Unmarshal(b, &f); err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal([]byte(tc.value), &v); err != nil {
				t.Fatal(err)
			}
			f["encoder"].(map[string]any)[tc.key] = v
			bad, _ := json.Marshal(f)
			p := filepath.Join(t.TempDir(), "bad"+saved.Ext)
			if err := os.WriteFile(p, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := saved.Open(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v, want one line with %q", err, tc.want)
			}
		})
	}
}
