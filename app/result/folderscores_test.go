package result_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/app/saved"
)

// writeShadePNGs writes grey pictures of one shade with a little noise into dir.
func writeShadePNGs(t *testing.T, dir string, shade uint8, seed uint64, names ...string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	for _, name := range names {
		img := image.NewGray(image.Rect(0, 0, 12, 10))
		for i := range img.Pix {
			img.Pix[i] = shade + uint8(rng.IntN(8))
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFolderScores: images sorted into subfolders score a clustering against them — K-means
// that finds the dark and the light folder exactly has NMI and ARI 1, in the summary too;
// one that puts all in one cluster has 0 — while a flat folder, or a feature learner, has
// nothing to score.
func TestFolderScores(t *testing.T) {
	root := t.TempDir()
	writeShadePNGs(t, filepath.Join(root, "dark"), 20, 1, "a.png", "b.png", "c.png", "d.png")
	writeShadePNGs(t, filepath.Join(root, "light"), 220, 2, "e.png", "f.png", "g.png")
	p, err := pipeline.Prepare(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: root}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		k        int
		nmi, ari float64
	}{{2, 1, 1}, {1, 0, 0}} {
		a, err := result.Run(context.Background(), p, algorithms.MustLookup("kmeans"), learn.Options{K: tc.k, Restarts: 3, Seed: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		fs, ok := a.FolderScores()
		s := saved.SummaryOf(a)
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
		if !ok || fs.Folders != 2 || !near(fs.NMI, tc.nmi) || !near(fs.ARI, tc.ari) || s.NMI == nil || *s.NMI != fs.NMI || *s.ARI != fs.ARI || s.Subfolders != 2 {
			t.Errorf("k = %d: scores %+v (%v), summary nmi %v ari %v", tc.k, fs, ok, s.NMI, s.ARI)
		}
		if fs.String() == "" {
			t.Errorf("no text")
		}
	}
	if a, err := result.Run(context.Background(), p, algorithms.MustLookup("kfeatures"), learn.Options{K: 2, Restarts: 3, Seed: 1}, nil); err != nil {
		t.Fatal(err)
	} else if _, ok := a.FolderScores(); ok || saved.SummaryOf(a).NMI != nil {
		t.Errorf("a feature learner's result was scored against the folders")
	}
	flat := t.TempDir()
	writeShadePNGs(t, flat, 20, 3, "a.png", "b.png")
	writeShadePNGs(t, flat, 220, 4, "c.png", "d.png")
	q, err := pipeline.Prepare(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: flat}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, err := result.Run(context.Background(), q, algorithms.MustLookup("kmeans"), learn.Options{K: 2, Restarts: 3, Seed: 1}, nil); err != nil {
		t.Fatal(err)
	} else if _, ok := a.FolderScores(); ok {
		t.Errorf("a folder without subfolders was scored")
	}
}
