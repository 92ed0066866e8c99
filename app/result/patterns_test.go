package result

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/internal/accuracy"
)

// writeDistinct writes n pictures of w×h into a temporary folder, each its own: a few soft
// blobs of colour at places and sizes drawn for it alone, so that nothing comes and goes
// from one picture to the next — a deck of distinct cards, in the small.
func writeDistinct(t *testing.T, n, w, h int, seed uint64) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(seed, 49))
	for i := range n {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		type blob struct{ x, y, r, c0, c1, c2 float64 }
		blobs := make([]blob, 4)
		for b := range blobs {
			blobs[b] = blob{rng.Float64() * float64(w), rng.Float64() * float64(h), 3 + rng.Float64()*float64(w)/5,
				rng.Float64(), rng.Float64(), rng.Float64()}
		}
		for y := range h {
			for x := range w {
				v := [3]float64{0.9, 0.9, 0.9}
				for _, b := range blobs {
					d := (float64(x)-b.x)*(float64(x)-b.x) + (float64(y)-b.y)*(float64(y)-b.y)
					g := math.Exp(-d / (2 * b.r * b.r))
					v[0] += g * (b.c0 - v[0])
					v[1] += g * (b.c1 - v[1])
					v[2] += g * (b.c2 - v[2])
				}
				img.SetNRGBA(x, y, color.NRGBA{uint8(255 * v[0]), uint8(255 * v[1]), uint8(255 * v[2]), 255})
			}
		}
		accuracy.WriteImage(t, filepath.Join(dir, fmt.Sprintf("p%03d.png", i)), img)
	}
	return dir
}

// TestFoldersWithNoObjectsSaySo: where nothing comes and goes — pictures each drawn on
// its own, and the real deck of 56 distinct cards — the default run's features are
// neither stable nor cleanly split; the result says so (NoObjects, KNote) and reads every
// feature as a pattern that a group of pictures shares, none as a thing added or removed.
func TestFoldersWithNoObjectsSaySo(t *testing.T) {
	accuracy.Check(t)
	for _, tc := range []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"distinct pictures", func(t *testing.T) string { return writeDistinct(t, 56, 48, 48, 1) }},
		{"card deck", func(t *testing.T) string { return accuracy.SharedData(t, "cards") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: tc.dir(t)}, PCA: pipeline.DefaultPCA, Algorithm: algorithms.MustLookup("stepwise"),
				Options: learn.Options{Restarts: 100, Seed: 1}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !a.NoObjects() || !strings.HasPrefix(a.KNote(), "No objects come and go") {
				t.Errorf("K = %d, stability %.3f, separation %.3f: no objects, yet the note is %q",
					a.Result.K, a.Stability, a.Separation(), a.KNote())
			}
			for k, e := range a.Effects() {
				if k != a.BaseIndex() && e != Pattern {
					t.Errorf("feature %d reads %q, not %q (stability %.3f, separation %.3f)", k+1, e, Pattern, a.Stability[k], a.Separation()[k])
				}
			}
		})
	}
}

// TestFoldersWithObjectsKeepTheirReading: the built-in samples, whose objects come and
// go, and the ORL faces, whose features vary by degrees, are no folders of patterns: no
// feature reads as one and the note, if any, is not the one of a folder with no objects.
// The real tabletop and the scene folders are held to their readings by
// TestReadingByContent and TestDefaultsReadRandomScenes.
func TestFoldersWithObjectsKeepTheirReading(t *testing.T) {
	accuracy.Check(t)
	for _, tc := range []struct {
		name   string
		source func(t *testing.T) pipeline.Source
	}{
		{"tabletop sample", func(*testing.T) pipeline.Source { return pipeline.Source{Sample: "tabletop"} }},
		{"dice sample", func(*testing.T) pipeline.Source { return pipeline.Source{Sample: "dice"} }},
		{"tetris sample", func(*testing.T) pipeline.Source { return pipeline.Source{Sample: "tetris"} }},
		{"cards sample", func(*testing.T) pipeline.Source { return pipeline.Source{Sample: "cards"} }},
		{"faces sample", func(*testing.T) pipeline.Source { return pipeline.Source{Sample: "faces"} }},
		{"ORL faces", func(t *testing.T) pipeline.Source { return pipeline.Source{Dir: accuracy.SharedData(t, "orl_faces")} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Analyze(context.Background(), pipeline.Request{Source: tc.source(t), PCA: pipeline.DefaultPCA, Algorithm: algorithms.MustLookup("stepwise"),
				Options: learn.Options{Restarts: 100, Seed: 1}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if a.NoObjects() || strings.HasPrefix(a.KNote(), "No objects") || slices.Contains(a.Effects(), Pattern) {
				t.Errorf("K = %d, stability %.3f, separation %.3f: read as a folder of patterns (%v, %q)",
					a.Result.K, a.Stability, a.Separation(), a.Effects(), a.KNote())
			}
		})
	}
}
