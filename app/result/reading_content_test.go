package result

import (
	"context"
	"encoding/csv"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/assets"
	"featurelab/internal/accuracy"
	"featurelab/internal/scenes"
)

// truthCodes reads a folder's truth.csv (image,code) into each image's true code, in the
// order of names; nil when there is none.
func truthCodes(t *testing.T, fsys fs.FS, names []string) [][]bool {
	t.Helper()
	f, err := fsys.Open(scenes.TruthFile)
	if err != nil {
		return nil
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string][]bool{}
	for _, r := range rows[1:] {
		code := make([]bool, len(r[1]))
		for i := range code {
			code[i] = r[1][i] == '1'
		}
		byName[r[0]] = code
	}
	out := make([][]bool, len(names))
	for i, name := range names {
		if out[i] = byName[name]; out[i] == nil {
			t.Fatalf("%s has no true code", name)
		}
	}
	return out
}

// learnedCodes is a's Z as bools.
func learnedCodes(a *Analysis) [][]bool {
	n, k := a.Result.Z.Dims()
	out := make([][]bool, n)
	for i := range out {
		out[i] = make([]bool, k)
		for f := range out[i] {
			out[i][f] = a.Result.Z.At(i, f) != 0
		}
	}
	return out
}

// misread lists the true objects a finds (agreement ≥ 0.95) that read wrong, with the
// number found. With a base, an object reads right when its feature is owned by the images
// that show it and adds; with none (the images read against their mean), when its
// caption says "removes" exactly when the feature is owned by the images without it, and
// "adds" otherwise.
func misread(a *Analysis, truth [][]bool, objects []string) (found int, wrong []string) {
	effects := a.Effects()
	hasBase := a.BaseIndex() >= 0
	for j, m := range scenes.MatchObjects(truth, learnedCodes(a)) {
		if m.Agreement < 0.95 {
			continue
		}
		found++
		name := fmt.Sprint("object ", j+1)
		if j < len(objects) {
			name = objects[j]
		}
		// An object that comes and goes adds (or, owned by the others, removes): not
		// "brightens" or "darkens", which say a change by degrees.
		want := Adds
		if m.Complement {
			want = Removes
		}
		if hasBase && m.Complement || effects[m.Feature] != want {
			wrong = append(wrong, fmt.Sprintf("%s as feature %d (complement %v, %q)", name, m.Feature+1, m.Complement, effects[m.Feature]))
		}
	}
	return found, wrong
}

// analyzeDrawn writes the scene folder draw draws from seed and runs the defaults on it
// (stepwise, 100 restarts, seed 1); it returns the analysis, the folder and what Write
// says of it.
func analyzeDrawn(t *testing.T, data string, seed uint64, draw func(string, uint64) (scenes.Spec, error)) (*Analysis, string, scenes.Folder) {
	t.Helper()
	spec, err := draw(data, seed)
	if err != nil {
		t.Fatal(err)
	}
	dir, folder := accuracy.WriteScene(t, spec)
	a, err := Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA, Algorithm: algorithms.MustLookup("stepwise"),
		Options: learn.Options{Restarts: 100, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a, dir, folder
}

// TestReadingByContent is the test bench of the reading: with the defaults, the built-in
// samples' features are their true objects, each owned by the images that show it and
// captioned "adds" (the dice, with no base, against their mean), and the real tabletop's
// base is the empty table (Picture_60 and Picture_94 own no feature) with four features
// that add. Then, on the seven scene folders of internal/scenes (cards, a shadow darker
// than the scene, stripes, at 19–90 %, exposure, jitter, JPEG; Sets, on which the reading
// was tuned, and Others, which checked it), every object K-features finds at K = 5 reads
// as itself.
func TestReadingByContent(t *testing.T) {
	accuracy.Check(t)
	ctx := context.Background()
	for _, sample := range []string{"tabletop", "dice", "tetris", "faces"} {
		t.Run(sample, func(t *testing.T) {
			a, err := Analyze(ctx, pipeline.Request{Source: pipeline.Source{Sample: sample}, PCA: pipeline.DefaultPCA, Algorithm: algorithms.MustLookup("stepwise"),
				Options: learn.Options{Restarts: 100, Seed: 1}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			sub, err := fs.Sub(assets.Samples(), sample)
			if err != nil {
				t.Fatal(err)
			}
			truth := truthCodes(t, sub, a.Data.Names)
			found, wrong := misread(a, truth, nil)
			if found != len(truth[0]) || len(wrong) > 0 {
				t.Errorf("%d of %d objects found; misread: %v", found, len(truth[0]), wrong)
			}
		})
	}
	t.Run("real tabletop", func(t *testing.T) {
		a, err := Analyze(ctx, pipeline.Request{Source: pipeline.Source{Dir: accuracy.SharedData(t, "tabletop")}, PCA: pipeline.DefaultPCA,
			Algorithm: algorithms.MustLookup("stepwise"), Options: learn.Options{Restarts: 100, Seed: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Result.K != 5 || a.BaseIndex() != 0 {
			t.Fatalf("K = %d, base %d; want 5 with the base first", a.Result.K, a.BaseIndex())
		}
		codes := map[string]string{}
		for i, c := range a.Codes() {
			codes[a.Data.Names[i]] = c
		}
		for _, empty := range []string{"Picture_60.jpg", "Picture_94.jpg"} {
			if codes[empty] != "10000" {
				t.Errorf("the empty table %s has code %s, want 10000", empty, codes[empty])
			}
		}
		for f, e := range a.Effects()[1:] {
			if e != Adds {
				t.Errorf("feature %d reads %q", f+2, e)
			}
		}
		if note := a.KNote(); note != "" {
			t.Errorf("the tabletop's K = 5 counts its objects, yet: %q", note)
		}
	})
	t.Run("scenes", func(t *testing.T) {
		var allWrong []string
		found := 0
		data := filepath.Dir(accuracy.SharedData(t, "bsds500-train"))
		for si, spec := range append(scenes.Sets(data), scenes.Others(data)...) {
			dir, folder := accuracy.WriteScene(t, spec)
			a, err := Analyze(ctx, pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA, Algorithm: algorithms.MustLookup("kfeatures"),
				Options: learn.Options{K: 5, Restarts: 100, Seed: 1}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, wrong := misread(a, truthCodes(t, os.DirFS(dir), a.Data.Names), folder.Objects)
			if a.NoObjects() {
				wrong = append(wrong, "read as a folder of patterns: "+a.KNote())
			}
			found += f
			for _, w := range wrong {
				allWrong = append(allWrong, fmt.Sprintf("set %d: %s", si+1, w))
			}
		}
		t.Logf("%d objects found, misread: %v", found, allWrong)
		if found < 23 || len(allWrong) > 0 {
			t.Errorf("%d objects found (want ≥ 23), %d misread: %v", found, len(allWrong), allWrong)
		}
	})
}

// TestDefaultsReadRandomScenes: on three folders drawn at random (scenes.Random, seeds the
// rules were not tuned on) with the defaults, K counts the four objects and each is a
// feature owned by the pictures that show it, captioned "adds", with no note — the shadow too, which
// dims a textured scene and reads backwards by its outline alone (imgproc.Holds), and
// which on seed 110 no fit up to K = 8 holds unless the cards' ±1 px shifts are
// modelled (selection.Objects.ShiftNuisance).
func TestDefaultsReadRandomScenes(t *testing.T) {
	accuracy.Check(t)
	data := filepath.Dir(accuracy.SharedData(t, "bsds500-train"))
	for _, seed := range []uint64{102, 110, 113} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			a, dir, folder := analyzeDrawn(t, data, seed, scenes.Random)
			if a.Result.K != 5 || a.BaseIndex() != 0 {
				t.Fatalf("K = %d with base %d, want 5 with the base first", a.Result.K, a.BaseIndex())
			}
			found, wrong := misread(a, truthCodes(t, os.DirFS(dir), a.Data.Names), folder.Objects)
			if found != 4 || len(wrong) > 0 {
				t.Errorf("%d of 4 objects found; misread: %v", found, wrong)
			}
			if note := a.KNote(); note != "" {
				t.Errorf("K = 5 counts the four objects, yet: %q", note)
			}
			if seed == 110 && !a.SeenShifts {
				t.Errorf("seed 110 counted its objects without the shifts modelled")
			}
			if a.SeenShifts {
				checkSeparationsReadEachFitsShifts(t, a)
			}
		})
	}
}

// TestLightReadsAsAdded: on folders with a lamp's light (scenes.RandomLight, seeds 201–206:
// two cards, a shadow and a glow with no edge added to a textured scene, each in 20–90 %
// of the pictures), the defaults give K = 5 with the base the scene without the light: the
// light's feature is owned by the pictures that show it and adds, as the shadow's is, on at
// least 5 of the 6 folders. Read by the shadow's rule alone, 5 of the 6 bases held the
// light (imgproc's lightWeight).
func TestLightReadsAsAdded(t *testing.T) {
	accuracy.Check(t)
	data := filepath.Dir(accuracy.SharedData(t, "bsds500-train"))
	right := 0
	for seed := uint64(201); seed <= 206; seed++ {
		a, dir, folder := analyzeDrawn(t, data, seed, scenes.RandomLight)
		found, wrong := misread(a, truthCodes(t, os.DirFS(dir), a.Data.Names), folder.Objects)
		if a.Result.K == 5 && a.BaseIndex() == 0 && found == 4 && len(wrong) == 0 {
			right++
			continue
		}
		t.Logf("seed %d: K = %d, base %d, %d of 4 objects found, misread: %v", seed, a.Result.K, a.BaseIndex(), found, wrong)
	}
	if right < 5 {
		t.Errorf("%d of 6 folders read right, want at least 5", right)
	}
}

// TestOccludedAndRareObjectsAreFound counts, with the defaults, what the folders of
// scenes.RandomKind that the first sets never show are read as (seeds 301–306): two cards
// one over the other (KindOcclusion: both found, agreement ≥ 95 %, in 11 of the 6 folders'
// 12), a card in under 10 % of the pictures (KindRare: found in all 6) and the stripes in
// over 90 % (found in 4 of 6; the other two fits leave them, with objects in 83–89 % of
// the pictures, in the base). The floors are what the reading does now: a change that
// loses one of these objects fails here.
func TestOccludedAndRareObjectsAreFound(t *testing.T) {
	accuracy.Check(t)
	data := filepath.Dir(accuracy.SharedData(t, "bsds500-train"))
	found := func(kind string, objects ...int) int {
		n := 0
		for seed := uint64(301); seed <= 306; seed++ {
			a, dir, _ := analyzeDrawn(t, data, seed, func(d string, s uint64) (scenes.Spec, error) { return scenes.RandomKind(d, s, kind) })
			matches := scenes.MatchObjects(truthCodes(t, os.DirFS(dir), a.Data.Names), learnedCodes(a))
			for _, j := range objects {
				if matches[j].Agreement >= 0.95 {
					n++
				}
			}
		}
		return n
	}
	if n := found(scenes.KindOcclusion, 0, 1); n < 11 {
		t.Errorf("the overlapping cards found %d times of 12, want at least 11", n)
	}
	if n := found(scenes.KindRare, 0); n < 6 {
		t.Errorf("the rare card found in %d folders of 6, want all", n)
	}
	if n := found(scenes.KindRare, 3); n < 4 {
		t.Errorf("the stripes in over 90 %% of the pictures found in %d folders of 6, want at least 4", n)
	}
}
