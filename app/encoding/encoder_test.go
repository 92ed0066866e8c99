package encoding

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/imgproc"
)

// TestEncodingTheTrainingImagesGivesTheirCodes: the learners end where the Z-step
// changes no code, so encoding the images an analysis was learned on gives back its
// codes, for features (the tabletop sample, base kept on) and for a clustering.
func TestEncodingTheTrainingImagesGivesTheirCodes(t *testing.T) {
	ctx := context.Background()
	p, err := pipeline.Prepare(ctx, pipeline.Request{Source: pipeline.Source{Sample: "tabletop"}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		algo string
		opt  learn.Options
	}{
		{"stepwise", learn.Options{Restarts: 20, Seed: 1}},
		{"kfeatures", learn.Options{K: 4, Restarts: 20, Seed: 1}},
		{"kmeans", learn.Options{K: 4, Restarts: 5, Seed: 1}},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			a, err := p.Run(ctx, tc.algo, tc.opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			e, err := FromAnalysis(a)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Check(); err != nil {
				t.Fatal(err)
			}
			got, err := e.Encode(a.Data)
			if err != nil {
				t.Fatal(err)
			}
			want := a.Codes()
			for i, c := range got {
				if c.Code != want[i] {
					t.Errorf("%s: code %s, the analysis's %s", c.Name, c.Code, want[i])
				}
			}
			// A picture of nothing the analysis saw — the first image upside down — is
			// not explained.
			flipped := *a.Data
			flipped.Names, flipped.Pixels = flipped.Names[:1], slices.Clone(flipped.Row(0))
			slices.Reverse(flipped.Pixels)
			if c, err := e.Encode(&flipped); err != nil || !c[0].Unexplained {
				t.Errorf("the first image upside down: %+v, %v; want it unexplained (limit %.3g)", c, err, e.Limit)
			}
		})
	}
}

// TestEncodingNewPhotosAgreesWithLearningThemAll is the check on the real
// tabletop: features learned on its first 50 photos (natural order) code the other 50
// as the analysis of all 100 does, object by object, and a BSDS photo and a face put
// among them are flagged as not explained.
func TestEncodingNewPhotosAgreesWithLearningThemAll(t *testing.T) {
	data := filepath.Join("..", "..", "..", "shared", "data")
	table := filepath.Join(data, "tabletop")
	if _, err := os.Stat(table); err != nil {
		t.Skipf("the real tabletop is not here (%v); it lives in ../shared/data", err)
	}
	ctx := context.Background()
	names, err := filepath.Glob(filepath.Join(table, "Picture_*.jpg"))
	if err != nil || len(names) != 100 {
		t.Fatalf("%d tabletop photos (%v), want 100", len(names), err)
	}
	slices.SortFunc(names, imgproc.NaturalOrder)
	first, rest := t.TempDir(), t.TempDir()
	for i, n := range names {
		dir := first
		if i >= 50 {
			dir = rest
		}
		abs, _ := filepath.Abs(n)
		if err := os.Symlink(abs, filepath.Join(dir, filepath.Base(n))); err != nil {
			t.Fatal(err)
		}
	}
	for _, stranger := range []struct{ from, to string }{
		{filepath.Join(data, "bsds500-train", "images", "100075.jpg"), "zz_photo.jpg"},
		{filepath.Join(data, "orl_faces", "s1", "1.pgm"), "zz_face.pgm"},
	} {
		abs, _ := filepath.Abs(stranger.from)
		if err := os.Symlink(abs, filepath.Join(rest, stranger.to)); err != nil {
			t.Fatal(err)
		}
	}
	analyze := func(dir string) *pipeline.Analysis {
		a, err := pipeline.Analyze(ctx, pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA,
			Algorithm: "stepwise", Options: learn.Options{Restarts: 100, Seed: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	learned, all := analyze(first), analyze(table)
	e, err := FromAnalysis(learned)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := imgproc.Load(ctx, rest, imgproc.Options{Width: e.Width, Height: e.Height, Color: imgproc.ColorRGB})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Encode(ds)
	if err != nil {
		t.Fatal(err)
	}
	full := map[string]string{}
	for i, c := range all.Codes() {
		full[all.Data.Names[i]] = c
	}
	// The two analyses number their features alike here; match them by agreement all
	// the same, so that only the codes count.
	k := e.K
	if all.Result.K != k {
		t.Fatalf("K = %d on the first 50 photos, %d on all 100", k, all.Result.K)
	}
	match := make([]int, k)
	for j := range match {
		best := -1
		for f := 0; f < k; f++ {
			agree := 0
			for _, c := range got {
				if w, ok := full[c.Name]; ok && w[f] == c.Code[j] {
					agree++
				}
			}
			if agree > best {
				best, match[j] = agree, f
			}
		}
	}
	same, photos := 0, 0
	for _, c := range got {
		w, ok := full[c.Name]
		if !ok {
			if !c.Unexplained {
				t.Errorf("%s (not a tabletop photo) explained: residual %.3g, limit %.3g", c.Name, c.Residual, e.Limit)
			}
			continue
		}
		photos++
		agree := true
		for j := range match {
			agree = agree && c.Code[j] == w[match[j]]
		}
		if agree {
			same++
		}
	}
	t.Logf("%d of %d photos coded as the whole analysis codes them (features matched %v)", same, photos, match)
	if photos != 50 || float64(same) < 0.98*float64(photos) {
		t.Errorf("%d of %d photos coded as the whole analysis codes them, want ≥ 98 %%", same, photos)
	}
}

// TestEncodeRefusesOtherPictures: images of another size or colour than the analysis's
// are one clear error, not a panic.
func TestEncodeRefusesOtherPictures(t *testing.T) {
	e := &Encoder{Width: 4, Height: 3, Channels: 1, K: 1, Base: -1, Mean: make([]float32, 12), Features: make([]float32, 12)}
	ds := &imgproc.Dataset{Width: 3, Height: 4, Channels: 1, Names: []string{"a"}, Pixels: make([]float32, 12)}
	if _, err := e.Encode(ds); err == nil || !strings.Contains(err.Error(), "3×4") {
		t.Errorf("got %v, want a line naming the sizes", err)
	}
}
