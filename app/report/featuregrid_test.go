package report

import (
	"bytes"
	"context"
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

// TestTrustText: the grid's line under a feature gives the share it explains and its
// stability; SeparationText says "on/off" or "gradual" (a feature whose images do not
// split into those with it and those without), nothing for the base.
func TestTrustText(t *testing.T) {
	signed := image.NewRGBA(image.Rect(0, 0, 1, 1))
	for _, tc := range []struct {
		f                result.Feature
		want, separation string
	}{
		{result.Feature{Signed: signed, Explained: 0.123, Stability: 0.75, Separation: 0.9}, "12.3%, stable 75%", "on/off"},
		{result.Feature{Signed: signed, Explained: 0.05, Stability: -1, Separation: 0.2}, "5.0%", "gradual"},
		{result.Feature{Signed: signed, Explained: 0.05, Stability: 1, Separation: math.NaN()}, "5.0%, stable 100%", ""},
		{result.Feature{Base: true, Stability: 1, Separation: math.NaN()}, "stable 100%", ""},
	} {
		if got := TrustText(tc.f); got != tc.want {
			t.Errorf("TrustText(%+v) = %q, want %q", tc.f, got, tc.want)
		}
		if got := SeparationText(tc.f); got != tc.separation {
			t.Errorf("SeparationText(%+v) = %q, want %q", tc.f, got, tc.separation)
		}
	}
}

// TestCodeLines: a code fits its cell in at most two lines of the grid's 7-pixel font, cut
// short with ".." when longer; a short one stays on one line.
func TestCodeLines(t *testing.T) {
	long := strings.Repeat("01", 78) // 156 features
	for _, tc := range []struct {
		code string
		px   int
		want []string
	}{
		{"10110", 128, []string{"10110"}},
		{long[:30], 128, []string{long[:18], long[18:30]}},
		{long, 105, []string{long[:15], long[15:28] + ".."}},
	} {
		got := codeLines(tc.code, tc.px)
		if !slices.Equal(got, tc.want) {
			t.Errorf("codeLines(%d digits, %d px) = %q, want %q", len(tc.code), tc.px, got, tc.want)
		}
		for _, line := range got {
			if 7*len(line) > tc.px {
				t.Errorf("line %q is %d px, wider than its %d px cell", line, 7*len(line), tc.px)
			}
		}
	}
}

// TestGridTextNeverOverlaps: on pictures with file names of 150 characters, portrait (a
// cell 96 pixels wide) and landscape, results of 30 features (every one drawn) and of
// 300 (codes of 300 digits, the 12 largest drawn), the exported grid's pictures and
// lines of text lie inside it and never on one another; the samples' captions are cut
// and numbered, and under the grid each sample's name and code are written whole. A
// 29-feature result's codes once ran into each other and names showed as "...clubs.png".
// With short names and codes there is no such list.
func TestGridTextNeverOverlaps(t *testing.T) {
	for _, tc := range []struct {
		name          string
		w, h, k       int
		long, all     bool
		wantFullNames bool
		patterns      bool // every feature unstable: the note of a folder with no objects
	}{
		{"portrait, K = 30, every feature", 12, 16, 30, true, true, true, false},
		{"landscape, K = 300", 16, 12, 300, true, false, true, false},
		{"short names, K = 4", 16, 12, 4, false, true, false, false},
		{"no objects, K = 4", 16, 12, 4, true, true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := longNamedAnalysis(t, tc.w, tc.h, tc.k, tc.long)
			if tc.patterns {
				a.Stability = []float64{1, 0.5, 0.5, 0.5}
				if !a.NoObjects() || a.KNote() == "" {
					t.Fatalf("random features held on half the halves, separations %.2f: no note", a.Separation())
				}
			}
			img, boxes := featureGrid(a, tc.all)
			for i, b := range boxes {
				if !b.In(img.Bounds()) {
					t.Errorf("box %v leaves the %v grid", b, img.Bounds())
				}
				for _, o := range boxes[i+1:] {
					if b.Overlaps(o) {
						t.Fatalf("boxes %v and %v overlap", b, o)
					}
				}
			}
			cellW, _ := cellSize(a)
			whole := strings.Join(sampleLegend(a, SampleImages(a, gridSamples), a.Codes(), cellW, 100_000), "\n")
			for c, i := range SampleImages(a, gridSamples) {
				entry := sampleIndex(c) + a.Data.Names[i] + ": " + a.Codes()[i]
				if got := strings.Contains(whole, entry); got != tc.wantFullNames {
					t.Errorf("sample %d written whole under the grid: %v, want %v", c+1, got, tc.wantFullNames)
				}
			}
		})
	}
}

// longNamedAnalysis is K-features on twelve random w×h pictures (names of 150
// characters when long), its result replaced by k features each image owns with
// probability 0.3.
func longNamedAnalysis(t *testing.T, w, h, k int, long bool) *result.Analysis {
	t.Helper()
	dir := t.TempDir()
	for i := range 12 {
		name := fmt.Sprintf("%02d.png", i)
		if long {
			name = fmt.Sprintf("%02d_%s.png", i, strings.Repeat("a_rather_long_file_name_", 6))
		}
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for p := range img.Pix {
			img.Pix[p] = uint8(rng.IntN(256))
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := result.Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: 10,
		Algorithm: algorithms.MustLookup("kfeatures"), Options: learn.Options{K: 2, Restarts: 1, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, d := a.Result.Z.RawMatrix().Rows, a.Result.A.RawMatrix().Cols
	rng := rand.New(rand.NewPCG(uint64(k), 4))
	Z, A := mat.NewDense(n, k, nil), mat.NewDense(k, d, nil)
	for i := range n {
		for f := range k {
			if f == 0 || rng.Float64() < 0.3 {
				Z.Set(i, f, 1)
			}
		}
	}
	for i := range A.RawMatrix().Data {
		A.RawMatrix().Data[i] = rng.NormFloat64()
	}
	b := *a
	b.Result, b.Stability = &learn.Result{K: k, Z: Z, A: A}, nil
	return &b
}

// TestGridTextIsASCII: what the grid draws is in its font's ASCII, the notes' λ² and
// dashes spelt out, since the font draws a box for anything else.
func TestGridTextIsASCII(t *testing.T) {
	for _, s := range []string{"the λ² path offers the others", "0.5 – 0.7 × σ · α ≥ 1 … “a” ’"} {
		for _, r := range gridText.Replace(s) {
			if r > 0x7e || r < 0x20 {
				t.Errorf("%q draws %q, which the grid's font has no glyph for", s, r)
			}
		}
	}
}
