package saved

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
)

// TestRestoreSaysWhatChangedInTheFolder saves an analysis of a folder, changes the
// folder (or the data prepared from it) and restores: an unchanged folder gives the
// result back, a changed one an ErrFolderChanged that says what changed.
func TestRestoreSaysWhatChangedInTheFolder(t *testing.T) {
	tests := []struct {
		name    string
		change  func(t *testing.T, dir string)                // the folder, after saving
		alter   func(p *pipeline.Prepared) *pipeline.Prepared // the data prepared again
		changed bool                                          // the error wraps ErrFolderChanged
		want    string                                        // the whole message if changed, else part of it; "" restores
	}{
		{name: "unchanged"},
		{name: "two added, one removed", change: func(t *testing.T, dir string) {
			writeNoisePNGs(t, dir, 16, 12, 9, "img10.png", "img11.png")
			removeFile(t, dir, "img03.png")
		}, changed: true, want: "the folder changed since the analysis was saved: 2 images added, 1 removed; run it again"},
		{name: "one removed", change: func(t *testing.T, dir string) {
			removeFile(t, dir, "img00.png")
		}, changed: true, want: "the folder changed since the analysis was saved: 1 image removed; run it again"},
		{name: "one added", change: func(t *testing.T, dir string) {
			writeNoisePNGs(t, dir, 16, 12, 9, "extra.png")
		}, changed: true, want: "the folder changed since the analysis was saved: 1 image added; run it again"},
		{name: "pictures of another size", change: func(t *testing.T, dir string) {
			writeNoisePNGs(t, dir, 20, 15, 9, noiseNames...)
		}, changed: true, want: "the folder changed since the analysis was saved: its images load as 20×15 grey now, 16×12 grey when saved; run it again"},
		{name: "reordered", alter: func(p *pipeline.Prepared) *pipeline.Prepared {
			ds := *p.Data
			ds.Names = slices.Clone(ds.Names)
			ds.Names[0], ds.Names[1] = ds.Names[1], ds.Names[0]
			return &pipeline.Prepared{Source: p.Source, Data: &ds, PCA: p.PCA, Scores: p.Scores}
		}, changed: true, want: "the folder changed since the analysis was saved: its 10 images are in another order; run it again"},
		{name: "fewer PCA dimensions", alter: func(p *pipeline.Prepared) *pipeline.Prepared {
			n, _ := p.Scores.Dims()
			return &pipeline.Prepared{Source: p.Source, Data: p.Data, PCA: p.PCA, Scores: p.Scores.Slice(0, n, 0, 4).(*mat.Dense)}
		}, changed: true, want: "the folder changed since the analysis was saved: its data have 4 PCA dimensions now, 5 when saved; run it again"},
		{name: "another folder", alter: func(p *pipeline.Prepared) *pipeline.Prepared {
			return &pipeline.Prepared{Source: pipeline.Source{Dir: "/elsewhere"}, Data: p.Data, PCA: p.PCA, Scores: p.Scores}
		}, want: "the data prepared are of /elsewhere"},
		{name: "a sample", alter: func(p *pipeline.Prepared) *pipeline.Prepared {
			return &pipeline.Prepared{Source: pipeline.Source{Sample: "dice"}, Data: p.Data, PCA: p.PCA, Scores: p.Scores}
		}, want: "the data prepared are of built-in sample dice"},
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			// Opened by a relative path, saved by an absolute one.
			rel, err := filepath.Rel(cwd, dir)
			if err != nil {
				t.Fatal(err)
			}
			a, load := noiseAnalysis(t, rel)
			path := filepath.Join(dir, "noise"+Ext)
			if err := Save(a, path, load); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if s.Source.Dir != dir {
				t.Fatalf("saved folder %q, want %q", s.Source.Dir, dir)
			}
			if tc.change != nil {
				tc.change(t, dir)
			}
			req, err := s.Request()
			if err != nil {
				t.Fatal(err)
			}
			p, err := pipeline.Prepare(ctx, req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.alter != nil {
				p = tc.alter(p)
			}
			b, err := s.Restore(p)
			switch {
			case tc.want == "":
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(b.Codes(), a.Codes()) {
					t.Fatal("restored codes differ")
				}
			case err == nil:
				t.Fatalf("restored; want %q", tc.want)
			case errors.Is(err, ErrFolderChanged) != tc.changed:
				t.Fatalf("%v: wraps ErrFolderChanged %v, want %v", err, !tc.changed, tc.changed)
			case tc.changed && err.Error() != tc.want:
				t.Fatalf("error\n%v\nwant\n%s", err, tc.want)
			case !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestOpenSavedRejectsBrokenFiles opens damaged and foreign files: each gives one line
// naming the file and the cause.
func TestOpenSavedRejectsBrokenFiles(t *testing.T) {
	dir := t.TempDir()
	a, saved := savedNoiseAnalysis(t, dir)
	good := filepath.Join(dir, "good"+Ext)
	if _, err := Open(good); err != nil {
		t.Fatalf("the unbroken file: %v", err)
	}
	var result bytes.Buffer
	if err := WriteJSON(&result, FullResultOf(a)); err != nil {
		t.Fatal(err)
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	edit := func(path string, change func(v any) any) []byte { return editJSON(t, saved, path, change) }
	set := func(path string, v any) []byte { return edit(path, func(any) any { return v }) }
	// z rows are result.json's: base64 of a byte per feature.
	zRow := func(i int, row string) []byte {
		return edit("result.z", func(v any) any { z := v.([]any); z[i] = row; return z })
	}
	bits := func(b ...byte) string { return base64.StdEncoding.EncodeToString(b) }
	aEntry := func(row, col int, x any) []byte {
		return edit("result.a", func(v any) any { a := v.([]any); a[row].([]any)[col] = x; return a })
	}
	ones := slices.Repeat([]string{"100"}, 10) // a Z of K = 3 in the sections outside the result
	withNaN := func(n, i int) []any {          // n numbers, the i-th "NaN"
		a := make([]any, n)
		for j := range a {
			a[j] = 0
		}
		a[i] = "NaN"
		return a
	}
	ibp := func(section map[string]any, kTrace ...int) []byte { // an ibp section, and the result's k_trace
		b := set("ibp", section)
		if kTrace != nil {
			b = editJSON(t, b, "result.k_trace", func(any) any { return kTrace })
		}
		return b
	}
	stability := func(values ...any) []byte {
		return edit("result.per_feature", func(v any) any {
			pf := v.([]any)
			for i, x := range values {
				pf[i].(map[string]any)["stability"] = x
			}
			return pf
		})
	}

	tests := []struct {
		name    string
		content []byte
		want    string
	}{
		{"empty", nil, "the file is empty"},
		{"truncated", saved[:len(saved)/2], "the file ends early"},
		{"a picture", pic.Bytes(), "not a Feature Lab analysis: not JSON (invalid character"},
		{"a result.json", result.Bytes(), `not a Feature Lab analysis: it has no "format": "featurelab-analysis"`},
		{"a list", []byte(`[1, 2]`), "not a Feature Lab analysis"},
		{"another format", set("format", "featurelab-result"), "not a Feature Lab analysis"},
		{"newer version", set("version", 3), "it is format version 3, from a newer Feature Lab; this one reads versions 1 and 2"},
		{"version 0", set("version", 0), "unknown format version 0"},
		{"version as text", set("version", "1\n"), `"version" must be a number, got "1\n"`},
		{"negative k", set("result.k", -1), "result k must be 1…65536, got -1"},
		{"huge k", set("result.k", 1e9), "result k must be 1…65536, got 1000000000"},
		{"k as text", set("result.k", "five"), "result.k must be a whole number, got string"},
		{"a row of z missing", edit("result.z", func(v any) any { return v.([]any)[1:] }), "result z has 9 rows, want one per image: 10"},
		{"a short row of z", zRow(3, bits(0)), "result z row 3 has 1 entries, want k = 3"},
		{"a 2 in z", zRow(0, bits(2, 0, 0)), "result z row 0 has 2 at 0, want 0 or 1"},
		{"z not base64", zRow(0, "!!"), "result z has a row that is not base64"},
		{"z of a large number", edit("result.z", func(v any) any { z := v.([]any); z[0] = []int{1, 0, 300}; return z }), "result.z must be 0 or 1, got number 300"},
		{"a row of a missing", edit("result.a", func(v any) any { a := v.([]any); return a[:len(a)-1] }), "result a has 2 rows, want k = 3"},
		{"a short row of a", edit("result.a", func(v any) any { a := v.([]any); a[1] = a[1].([]any)[1:]; return a }), "result a row 2 has 4 numbers, row 1 5"},
		{"a number out of range", aEntry(0, 2, json.Number("1e999")), "result.a must be a number, got number 1e999"},
		{"an objective as words", set("result.objective", "lots"), "result.objective must be a number, got string"},
		{"huge d", edit("result.a", func(v any) any { a := v.([]any); a[0] = make([]float64, 200); return a }), "result a rows' length must be 1…192 for 16×12×1 images, got 200"},
		{"huge width", set("result.width", 1e7), "result size must be 1…1048576 on a side, got 10000000×12"},
		{"width beyond int", set("result.width", 1e30), "result.width must be a whole number, got number 1e+30"},
		{"two channels", set("result.channels", 2), "result channels must be 1 or 3, got 2"},
		{"no names", set("result.names", []string{}), "result has no image names"},
		{"unknown algorithm", set("result.algorithm", "svm"), `result algorithm must be one of ` + strings.Join(algorithms.Names(), ", ") + `, got "svm"`},
		{"unknown reading", set("result.reading", "sideways"), `result reading must be "readable" or "as found", got "sideways"`},
		{"relative folder", set("source", map[string]string{"dir": "images"}), `source dir "images" is not an absolute path`},
		{"unknown sample", set("source", map[string]string{"sample": "zoo"}), `got "zoo"`},
		{"bad load options", set("load.pca", "-3"), `load options: pca must be a whole number ≥ 0 (0 = no PCA), got "-3"`},
		// The options a learner's parameters write (algorithms.OptionParams) and the rest.
		{"options k as text", set("options.k", "five"), "options.k must be a whole number, got string"},
		{"options λ² as words", set("options.lambda2", "lots"), `options.lambda2 must be a number, "NaN", "+Inf" or "-Inf", got string`},
		{"options seed negative", set("options.seed", -1), "options.seed must be a whole number ≥ 0, got number -1"},
		{"options k_from unknown", set("options.k_from", "guess"), `options k_from must be objects or widest, got "guess"`},
		{"options max_iter as text", set("options.max_iter", "many"), "options.max_iter must be a whole number, got string"},
		{"options as a list", set("options", []int{1}), "options must be an object, got array"},
		{"trace of uneven lengths", ibp(map[string]any{"trace": map[string]any{"alpha": []float64{1}, "sigma_x": []float64{1, 1},
			"sigma_a": []float64{1, 1}, "log_joint": []any{"-Inf", 1}}}, 1, 2), "ibp trace lists have 2, 1, 2, 2 and 2 sweeps"},
		{"k_trace without a trace", set("result.k_trace", []int{1, 2}), "result k_trace has 2 sweeps, but the file has no ibp trace"},
		{"z_probability of one row", set("result.z_probability", [][]float64{{0.5}}), "result z_probability has 1 rows, want one per image: 10"},
		{"z_probability above 1", set("result.z_probability", slices.Repeat([][]float64{{1.5, 0, 0}}, 10)), "result z_probability row 1 holds 1.5, want probabilities in [0, 1]"},
		{"ibp without its trace", ibp(map[string]any{"map_log_joint": -3}, 1, 2), "result k_trace has 2 sweeps, but the file has no ibp trace"},
		{"trace as a number", ibp(map[string]any{"trace": 5}), "ibp.trace must be an object, got number"},
		{"ibp as a list", set("ibp", []int{1}), "ibp must be an object, got array"},
		{"restart objectives as an object", set("result.restart_objectives", map[string]int{}), "result.restart_objectives must be a list, got object"},
		{"map_z of one row", ibp(map[string]any{"map_z": map[string]any{"k": 2, "rows": []string{"01"}}}), "ibp map_z has 1 rows, want one per image: 10"},
		{"map_z k huge", ibp(map[string]any{"map_z": map[string]any{"k": 1 << 40, "rows": []string{}}}), "ibp map_z k must be 0…65536, got 1099511627776"},
		{"negative histogram", set("result.k_histogram", []int{0, -1}), "result k_histogram[1] is -1, a count"},
		// Numbers a view would choke on: a curve point at K = 2⁶² froze the Diagnostics
		// tab; features of NaN or 1e308 drew as black and white pictures without a word.
		{"curve k huge", set("result.curve", []map[string]any{{"k": 4611686018427387904, "objective": 1, "bp_objective": 1}}), "result curve has k = 4611686018427387904, want 0…65536"},
		{"trace k huge", ibp(map[string]any{"trace": map[string]any{"alpha": []float64{1}, "sigma_x": []float64{1},
			"sigma_a": []float64{1}, "log_joint": []float64{1}}}, 1<<40), "result k_trace[0] is 1099511627776, want a number of features 0…65536"},
		{"a NaN feature", aEntry(1, 4, "NaN"), "result.a must be a number, got string"},
		{"a feature of 1e308", aEntry(1, 2, 1e308), "result a row 2, column 3 is 1e+308"},
		{"a NaN in the other reading", set("other_reading", map[string]any{"z": ones, "a": withNaN(15, 4)}),
			"other_reading a row 1, column 5 is NaN: features must be finite numbers within ±1e+09"},
		{"an infinite path fit", set("path_fits", []map[string]any{{"k": 1, "z": slices.Repeat([]string{"1"}, 10), "a": []any{"-Inf", 0, 0, 0, 0}, "objective": 1}}),
			"path_fits[0] a row 1, column 1 is -Inf"},
		{"a path fit of another size", set("path_fits", []map[string]any{{"k": 1, "z": slices.Repeat([]string{"1"}, 10), "a": []float64{1, 2}, "objective": "+Inf"}}),
			"path_fits[0] a has 2 numbers, want k × d = 1 × 5 = 5"},
		{"other reading of another K", set("other_reading", map[string]any{"z": slices.Repeat([]string{"1"}, 10), "a": make([]float64, 5)}),
			"other_reading z row 0 has 1 entries, want k = 3"},
		{"stability of some features", stability(1, nil, 0.5), "result per_feature gives the stability of 2 features, want all 3 or none"},
		{"stability beyond 1", stability(1, 2, 1), "result per_feature[1] stability must be in [0, 1], got 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+Ext)
			if err := os.WriteFile(path, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path)
			if err == nil {
				t.Fatalf("opened: %+v", s)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Fatalf("error\n%s\nwant one line: %s: …%s…", msg, path, tc.want)
			}
		})
	}
	if _, err := Open(filepath.Join(dir, "missing"+Ext)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

// TestOpenSavedReadsOnlyWhatAnAnalysisCanBe: a FIFO with no writer, a link to /dev/zero
// and a sparse file of 2 GiB are each refused at once with one line naming what they
// are, before any byte is read: the FIFO does not wait for a writer, /dev/zero is not
// read without end, and 2 GiB of zeros are not read into memory to be found not JSON.
func TestOpenSavedReadsOnlyWhatAnAnalysisCanBe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo"+Ext)
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	zero := filepath.Join(dir, "zero"+Ext)
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse"+Ext)
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct{ path, want string }{
		{fifo, "not a regular file but a FIFO (named pipe)"},
		{zero, "not a regular file but a character device"},
		{sparse, "2048 MB, more than the 256 MB any analysis writes"},
		{dir, "not a regular file but a folder"},
	} {
		_, err := Open(tc.path)
		if err == nil || !strings.HasPrefix(err.Error(), tc.path+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want …%s", tc.path, err, tc.want)
		}
	}
}

// TestSaveRefusesWhatCouldNotBeOpened: an analysis without features, or with load
// options that do not read back, is refused before anything is written.
func TestSaveRefusesWhatCouldNotBeOpened(t *testing.T) {
	dir := t.TempDir()
	a, load := noiseAnalysis(t, filepath.Join(dir, "images"))
	noFeatures := *a
	noFeatures.Result = &learn.Result{Z: &mat.Dense{}, A: &mat.Dense{}}
	tests := []struct {
		name string
		a    *result.Analysis
		load pipeline.LoadChoices
		want string
	}{
		{"no result", &result.Analysis{Prepared: a.Prepared}, load, "the analysis has no result to save"},
		{"no features", &noFeatures, load, "the analysis has no features to save"},
		{"bad load options", a, pipeline.LoadChoices{Size: "big"}, `load options: size must look like 320x240, got "big"`},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+Ext)
		err := Save(tc.a, path, tc.load)
		if err == nil || err.Error() != path+": "+tc.want {
			t.Errorf("%s: error %v, want %s: %s", tc.name, err, path, tc.want)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: a file was written (%v)", tc.name, err)
		}
	}
}

// FuzzOpenSaved reads arbitrary bytes as a saved analysis: no input panics, every error
// is one line, and what is accepted has dimensions that agree and writes back to a file
// that reads the same.
func FuzzOpenSaved(f *testing.F) {
	a, load := noiseAnalysis(f, f.TempDir())
	file, err := fileOf(a, load)
	if err != nil {
		f.Fatal(err)
	}
	good, err := json.Marshal(file)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	// An IBP-like result, with a trace, a MAP allocation of another K and non-finite values.
	r := cloneResult(a.Result)
	r.Trace = &learn.IBPTrace{K: []int{1, 2}, Alpha: []float64{1, math.NaN()}, SigmaX: []float64{1, 2},
		SigmaA: []float64{3, 4}, LogJoint: []float64{math.Inf(-1), -3}, AcceptX: 0.5}
	r.MAPZ, r.MAPLogJoint = r.Z.Slice(0, len(a.Data.Names), 0, 2).(*mat.Dense), math.Inf(-1)
	r.KHistogram, r.RestartObjectives = []int{0, 1, 1}, []float64{math.Inf(1), 3}
	r.Curve = []learn.CurvePoint{{K: 1, Objective: 2, BPObjective: math.NaN()}}
	ibp := *a
	ibp.Algorithm, ibp.Result = algorithms.MustLookup("ibp"), r
	if file, err = fileOf(&ibp, load); err != nil {
		f.Fatal(err)
	}
	rich, err := json.Marshal(file)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(rich)
	f.Add(good[:len(good)/2])
	f.Add(bytes.Replace(good, []byte(`"version":2`), []byte(`"version":3`), 1))
	f.Add(bytes.Replace(good, []byte(`"k":3`), []byte(`"k":-3`), 1))
	f.Add([]byte(`{"format":"featurelab-analysis","version":2}`))
	f.Add([]byte(`{"format":"featurelab-analysis","version":1}`))
	// Files of version 1, as the Feature Lab before version 2 wrote them.
	for _, name := range []string{"v1-dice-stepwise", "v1-dice-ibp"} {
		b, err := os.ReadFile(filepath.Join("testdata", name+Ext))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}

	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := parseSaved(b)
		var s *Analysis
		if err == nil {
			s, err = file.saved()
		}
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		checkSavedDims(t, s)
		if _, err := s.Request(); err != nil {
			t.Fatalf("accepted a file whose request fails: %v", err)
		}
		// Written back (a version-1 file as version 2), it reads the same.
		back, err := json.Marshal(file)
		if err != nil {
			t.Fatal(err)
		}
		again, err := decodeSaved(back)
		if err != nil {
			t.Fatalf("an accepted file writes back to one that is refused: %v", err)
		}
		if g, w := resultText(again.Result), resultText(s.Result); g != w {
			t.Fatalf("written back, the result reads differently:\n%s", firstDifference(g, w))
		}
		if !slices.Equal(again.Stability, s.Stability) || again.AsFound != s.AsFound || (again.Other == nil) != (s.Other == nil) {
			t.Fatalf("written back, stability %v as found %v other %v; was %v, %v, %v",
				again.Stability, again.AsFound, again.Other != nil, s.Stability, s.AsFound, s.Other != nil)
		}
	})
}

// checkSavedDims checks what the views rely on: Z is N × K of 0/1, A is K × D, the MAP
// allocation has a row per image, the trace one length.
func checkSavedDims(t *testing.T, s *Analysis) {
	t.Helper()
	r, n := s.Result, len(s.Names)
	if zn, zk := r.Z.Dims(); zn != n || zk != r.K || r.K < 1 {
		t.Fatalf("Z is %d×%d for %d images and K = %d", zn, zk, n, r.K)
	}
	if ak, ad := r.A.Dims(); ak != r.K || ad != s.D {
		t.Fatalf("A is %d×%d, want %d×%d", ak, ad, r.K, s.D)
	}
	if s.D > s.Width*s.Height*s.Channels {
		t.Fatalf("D = %d for %d×%d×%d images", s.D, s.Width, s.Height, s.Channels)
	}
	for i := range n {
		for _, z := range r.Z.RawRowView(i) {
			if z != 0 && z != 1 {
				t.Fatalf("Z has %v", z)
			}
		}
	}
	if r.MAPZ != nil && !r.MAPZ.IsEmpty() {
		if mn, _ := r.MAPZ.Dims(); mn != n {
			t.Fatalf("MAP Z has %d rows for %d images", mn, n)
		}
	}
	if tr := r.Trace; tr != nil && (len(tr.Alpha) != len(tr.K) || len(tr.SigmaX) != len(tr.K) ||
		len(tr.SigmaA) != len(tr.K) || len(tr.LogJoint) != len(tr.K)) {
		t.Fatalf("trace of uneven lengths: %+v", tr)
	}
}

// noiseNames are the pictures noiseAnalysis writes.
var noiseNames = []string{"img00.png", "img01.png", "img02.png", "img03.png", "img04.png",
	"img05.png", "img06.png", "img07.png", "img08.png", "img09.png"}

// noiseAnalysis writes ten 16×12 grey pictures of noise into dir and clusters them in
// three: a quick analysis of a folder a test can change.
func noiseAnalysis(tb testing.TB, dir string) (*result.Analysis, pipeline.LoadChoices) {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	writeNoisePNGs(tb, dir, 16, 12, 1, noiseNames...)
	load := pipeline.LoadChoices{PCA: "5"}
	req, err := load.Request(pipeline.Source{Dir: dir})
	if err != nil {
		tb.Fatal(err)
	}
	p, err := pipeline.Prepare(context.Background(), req, nil)
	if err != nil {
		tb.Fatal(err)
	}
	a, err := result.Run(context.Background(), p, algorithms.MustLookup("kmeans"), learn.Options{K: 3, Restarts: 2, Seed: 1}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return a, load
}

// savedNoiseAnalysis saves noiseAnalysis of dir/images as dir/good.featurelab and
// returns the analysis and the file's bytes.
func savedNoiseAnalysis(tb testing.TB, dir string) (*result.Analysis, []byte) {
	tb.Helper()
	a, load := noiseAnalysis(tb, filepath.Join(dir, "images"))
	good := filepath.Join(dir, "good"+Ext)
	if err := Save(a, good, load); err != nil {
		tb.Fatal(err)
	}
	saved, err := os.ReadFile(good)
	if err != nil {
		tb.Fatal(err)
	}
	return a, saved
}

// writeNoisePNGs writes grey pictures of noise, w × h, drawn from seed.
func writeNoisePNGs(tb testing.TB, dir string, w, h int, seed uint64, names ...string) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, name := range names {
		img := image.NewGray(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = uint8(rng.IntN(256))
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

func removeFile(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// resultText writes out every field of a result, floats in the shortest form that reads
// back to the same value (NaN, ±Inf and −0 included), so that two results compare as text.
func resultText(r *learn.Result) string {
	dense := func(m *mat.Dense) string {
		if m == nil {
			return "nil"
		}
		if m.IsEmpty() {
			return "empty"
		}
		rows, cols := m.Dims()
		return fmt.Sprint(rows, "×", cols, rowMajor(m))
	}
	c := *r
	c.Z, c.A, c.MAPZ, c.Trace, c.PathFits, c.ZProbability = nil, nil, nil, nil, nil, nil
	text := fmt.Sprintf("%+v\nZ %s\nA %s\nMAP Z %s\nP(Z) %s\n", c, dense(r.Z), dense(r.A), dense(r.MAPZ), dense(r.ZProbability))
	for _, pf := range r.PathFits {
		text += fmt.Sprintf("path K = %d objective %v: Z %s A %s\n", pf.K, pf.Objective, dense(pf.Z), dense(pf.A))
	}
	if r.Trace != nil {
		text += fmt.Sprintf("trace %+v\n", *r.Trace)
	}
	return text
}

// editJSON changes one field of the JSON object doc; path names it as "result.z",
// "version".
func editJSON(tb testing.TB, doc []byte, path string, change func(v any) any) []byte {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		tb.Fatal(err)
	}
	keys := strings.Split(path, ".")
	at := m
	for _, k := range keys[:len(keys)-1] {
		at = at[k].(map[string]any)
	}
	last := keys[len(keys)-1]
	at[last] = change(at[last])
	b, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// firstDifference shows where two long texts part.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-40)
	return fmt.Sprintf("got  …%.120s\nwant …%.120s", got[from:], want[from:])
}
