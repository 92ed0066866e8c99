package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"featurelab/assets"
)

// TestAnalyzeSaveThenEncode: analyze --save writes a file that encode codes a folder
// with; the codes of the images learned on are the analysis's own, a broken picture is
// skipped with its reason, and what cannot be encoded is one line: a saved file with no
// encoder, a folder with no pictures, a file that is no analysis.
func TestAnalyzeSaveThenEncode(t *testing.T) {
	root := t.TempDir()
	if err := assets.WriteSet(root, "dice"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "dice")
	file := filepath.Join(t.TempDir(), "dice.featurelab")
	s, stderr, code := analyze(t, dir, "--save", file)
	if code != 0 {
		t.Fatalf("analyze exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.png"), []byte("\x89PNG\r\n\x1a\nnot really"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, errBuf bytes.Buffer
	out, sorted := t.TempDir(), filepath.Join(t.TempDir(), "sorted")
	if code := Run([]string{"encode", "--json", "--out", out, "--sort-into", sorted, file, dir}, &stdout, &errBuf); code != 0 {
		t.Fatalf("encode exit %d: %s", code, errBuf.String())
	}
	var got encodeSummary
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout.String())
	}
	if _, ok := got.Skipped["broken.png"]; len(got.Images) != len(s.Codes) || !ok {
		t.Fatalf("%d images coded, %d learned; skipped %v", len(got.Images), len(s.Codes), got.Skipped)
	}
	for i, c := range got.Images {
		if c.Code != s.Codes[i] {
			t.Errorf("%s: encoded %s, learned %s", c.Name, c.Code, s.Codes[i])
		}
	}
	if entries, err := os.ReadDir(filepath.Join(sorted, "code "+s.Codes[0])); err != nil || got.Sorted == 0 || len(entries) == 0 {
		t.Errorf("--sort-into: %v, %d files written", err, got.Sorted)
	}
	if b, err := os.ReadFile(filepath.Join(out, "codes.csv")); err != nil || !strings.HasPrefix(string(b), "image,code,residual,explained\n") {
		t.Errorf("codes.csv: %v %q", err, b)
	}

	// The same file without its encoder, as files saved before there was one.
	var f map[string]any
	b, _ := os.ReadFile(file)
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	delete(f, "encoder")
	old := filepath.Join(t.TempDir(), "old.featurelab")
	b, _ = json.Marshal(f)
	if err := os.WriteFile(old, b, 0o644); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(t.TempDir(), "notes.featurelab")
	if err := os.WriteFile(notes, []byte("shopping list"), 0o644); err != nil {
		t.Fatal(err)
	}
	// One photo is enough to encode.
	single := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, got.Images[0].Name), filepath.Join(single, "one.png")); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if code := Run([]string{"encode", "--json", "--out", t.TempDir(), file, single}, &stdout, &errBuf); code != 0 {
		t.Errorf("encoding one picture: exit %d: %s", code, errBuf.String())
	} else if err := json.Unmarshal(stdout.Bytes(), &got); err != nil || len(got.Images) != 1 || got.Images[0].Code != s.Codes[0] {
		t.Errorf("encoding one picture: %v, %+v", err, got.Images)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no encoder", []string{old, dir}, "holds no encoder"},
		{"an empty folder", []string{file, t.TempDir()}, "no usable images"},
		{"no analysis", []string{notes, dir}, "not a Feature Lab analysis"},
		{"one argument", []string{file}, "encode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(append([]string{"encode", "--out", t.TempDir()}, tc.args...), &stdout, &stderr)
			msg := stderr.String()
			if code != 1 || !strings.Contains(msg, tc.want) || strings.Count(msg, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 1 and one line with %q", code, msg, tc.want)
			}
		})
	}
}

// TestEncodeGivesIBPProbabilities: encode with an IBP analysis (the built-in tetris,
// saved from analyze) writes each image's z_probability in the JSON and p1…pK in
// codes.csv, ≥ ½ where its code has the feature; the codes are the analysis's own.
func TestEncodeGivesIBPProbabilities(t *testing.T) {
	root := t.TempDir()
	if err := assets.WriteSet(root, "tetris"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "tetris")
	file := filepath.Join(t.TempDir(), "tetris.featurelab")
	s, stderr, code := analyze(t, dir, "--algo", "ibp", "--pca", "0", "--chains", "1", "--sweeps", "200", "--save", file)
	if code != 0 {
		t.Fatalf("analyze exit %d: %s", code, stderr)
	}
	var stdout, errBuf bytes.Buffer
	out := t.TempDir()
	if code := Run([]string{"encode", "--json", "--out", out, file, dir}, &stdout, &errBuf); code != 0 {
		t.Fatalf("encode exit %d: %s", code, errBuf.String())
	}
	var got encodeSummary
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	agree, bits := 0, 0
	for i, c := range got.Images {
		if len(c.ZProbability) != got.K {
			t.Fatalf("%s: z_probability %v for K = %d", c.Name, c.ZProbability, got.K)
		}
		if c.Code != s.Codes[i] {
			t.Errorf("%s: encoded %s, learned %s", c.Name, c.Code, s.Codes[i])
		}
		for k, p := range c.ZProbability {
			bits++
			if (p >= 0.5) == (c.Code[k] == '1') {
				agree++
			}
		}
	}
	if float64(agree) < 0.95*float64(bits) {
		t.Errorf("z_probability agrees with the codes on %d of %d bits", agree, bits)
	}
	b, err := os.ReadFile(filepath.Join(out, "codes.csv"))
	if want := "image,code,residual,explained,p1,p2,p3,p4,p5\n"; err != nil || got.K != 5 || !strings.HasPrefix(string(b), want) {
		t.Errorf("codes.csv of K = %d: %v, %.80q; want it to start %q", got.K, err, b, want)
	}
}
