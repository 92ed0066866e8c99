package saved_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"featurelab/app/pipeline"
	"featurelab/app/saved"
)

// TestOpensVersion1Files opens analyses of the dice sample saved by the Feature Lab
// before the saved file held its result as result.json does (main at 92e8b19: stepwise,
// with its λ² path fits, the other reading, stability and an encoder; the IBP, 40
// sweeps of 2 chains, with its trace and MAP allocation), and restores them: the
// result.json the reopened analysis writes says what the one written by the same run
// said, timings included.
func TestOpensVersion1Files(t *testing.T) {
	// What the file carries and what follows from Z alone; not what is worked out from
	// the data (per-feature effects, residuals, the note on K), which other code owns.
	keys := []string{"algorithm", "source", "n_images", "width", "height", "channels", "k", "lambda2",
		"objective", "bp_objective", "restarts", "seed", "iterations", "codes", "reading", "names",
		"seconds", "peak_memory_bytes", "curve", "path", "k_from", "posterior_objective", "alpha",
		"sigma_x", "sigma_a", "k_trace", "k_histogram", "z", "a", "restart_objectives", "owners", "base_feature"}
	for _, name := range []string{"v1-dice-stepwise", "v1-dice-ibp"} {
		t.Run(name, func(t *testing.T) {
			s, err := saved.Open(filepath.Join("testdata", name+saved.Ext))
			if err != nil {
				t.Fatal(err)
			}
			req, err := s.Request()
			if err != nil {
				t.Fatal(err)
			}
			p, err := pipeline.Prepare(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.Restore(p)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := saved.WriteJSON(&got, saved.FullResultOf(b)); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", name+".result.json"))
			if err != nil {
				t.Fatal(err)
			}
			var g, w map[string]any
			if err := json.Unmarshal(got.Bytes(), &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			for _, k := range keys {
				if !reflect.DeepEqual(g[k], w[k]) {
					gt, _ := json.Marshal(g[k])
					wt, _ := json.Marshal(w[k])
					t.Errorf("%s: %.200s, result.json %.200s", k, gt, wt)
				}
			}
			// Stability is the one per-feature figure the file holds.
			gp, wp := g["per_feature"].([]any), w["per_feature"].([]any)
			if len(gp) != len(wp) {
				t.Fatalf("%d features described, result.json %d", len(gp), len(wp))
			}
			for i := range gp {
				if gs, ws := gp[i].(map[string]any)["stability"], wp[i].(map[string]any)["stability"]; gs != ws {
					t.Errorf("feature %d: stability %v, result.json %v", i+1, gs, ws)
				}
			}
			r := b.Result
			switch name {
			case "v1-dice-stepwise":
				if len(r.PathFits) == 0 || b.Other == nil || len(b.Stability) != r.K || s.Encoder == nil {
					t.Errorf("%d path fits, other reading %v, %d stabilities, encoder %v", len(r.PathFits), b.Other != nil, len(b.Stability), s.Encoder != nil)
				}
			case "v1-dice-ibp":
				if r.Trace == nil || len(r.Trace.LogJoint) != len(r.Trace.K) || len(r.Trace.K) == 0 || r.MAPZ == nil || r.MAPLogJoint == 0 {
					t.Errorf("trace %+v, MAP Z %v, MAP log joint %v", r.Trace, r.MAPZ != nil, r.MAPLogJoint)
				}
			}
		})
	}
}

// TestVersion1FilesRefusedInOneLine: a damaged version-1 file is refused in one line
// naming the file and the cause, as a version-2 one is.
func TestVersion1FilesRefusedInOneLine(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "v1-dice-ibp"+saved.Ext))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(path string, change func(v any) any) []byte { return saved.EditJSON(t, good, path, change) }
	set := func(path string, v any) []byte { return edit(path, func(any) any { return v }) }
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		content []byte
		want    string
	}{
		{"truncated", good[:len(good)/2], "the file ends early"},
		{"a 2 in z", edit("result.z", func(v any) any { z := v.([]any); z[3] = "102010000"; return z }), "result z row 3 has '2' at 2, want 0 or 1"},
		{"a short row of z", edit("result.z", func(v any) any { z := v.([]any); z[0] = "1"; return z }), "result z row 0 has 1 entries, want k = 9"},
		{"huge d", set("data.d", 1e12), "data d must be 1…196 for 14×14×1 images, got 1000000000000"},
		{"no names", set("data.names", []string{}), "data has no image names"},
		{"a not k × d", edit("result.a", func(v any) any { a := v.([]any); return a[1:] }), "result a has 890 numbers, want k × d = 9 × 99 = 891"},
		{"a NaN feature", edit("result.a", func(v any) any { a := v.([]any); a[100] = "NaN"; return a }), "result a row 2, column 2 is NaN"},
		{"huge k", set("result.k", 1e9), "result k must be 1…65536, got 1000000000"},
		{"trace of uneven lengths", edit("result.trace", func(v any) any { tr := v.(map[string]any); tr["alpha"] = []any{1}; return tr }),
			"ibp trace lists have 40, 1, 40, 40 and 40 sweeps"},
		{"map_z of one row", set("result.map_z", map[string]any{"k": 2, "rows": []string{"01"}}), "ibp map_z has 1 rows, want one per image: 100"},
		{"stability of another length", set("stability", []float64{1, 1}), "result per_feature gives the stability of 2 features, want all 9 or none"},
		{"other reading of another K", set("other_reading", map[string]any{"k": 2, "z": []string{}, "a": []float64{}, "objective": 0}), "other_reading k is 2, the result's 9"},
		{"an objective as words", set("result.objective", "lots"), `result.objective must be a number, "NaN", "+Inf" or "-Inf", got string "lots"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+saved.Ext)
			if err := os.WriteFile(path, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := saved.Open(path)
			if err == nil {
				t.Fatalf("opened: %+v", s)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Fatalf("error\n%s\nwant one line: %s: …%s…", msg, path, tc.want)
			}
		})
	}
}
