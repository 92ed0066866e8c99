package pipeline

import (
	"context"
	"path/filepath"
	"testing"

	"featurelab/algorithms/learn"
	"featurelab/imgproc"
	"featurelab/internal/scenes"
)

// departs reports, for feature f of a, whether its owners' picture departs from the scene
// more than the picture without it (imgproc.Departure): the base against base + feature,
// or with no base the mean image against mean + feature.
func departs(a *Analysis, f int) bool {
	_, k := a.Result.Z.Dims()
	base := a.BaseIndex()
	pix := a.featurePixels(base)
	without, with := pix.RawRowView(2*k), pix.RawRowView(k+f)
	if base >= 0 {
		without, with = pix.RawRowView(base), pix.RawRowView(f)
	}
	dWithout, dWith := imgproc.Departure(without, with, a.Data.Width, a.Data.Height, a.Data.Channels)
	return dWith > dWithout
}

// TestDepartureOrientsObjects is the test bench of the reading by content: on the scene
// folders of internal/scenes (cards, a shadow darker than the scene, a colour patch, at
// 19–88 %, exposure, jitter, JPEG) every object K-features finds is told apart from its
// complement by its departure from the scene; and on the real tabletop photos, every
// feature the empty table (Picture_60) owns is read as the table without the object.
func TestDepartureOrientsObjects(t *testing.T) {
	specs := scenes.Sets(filepath.Dir(sharedData(t, "bsds500-train")))
	found := 0
	for si, spec := range specs {
		dir := t.TempDir()
		truth, err := scenes.Write(dir, spec)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Analyze(context.Background(), Request{Source: Source{Dir: dir}, PCA: DefaultPCA, Algorithm: "kfeatures",
			Options: learn.Options{K: 5, Restarts: 100, Seed: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		n, k := a.Result.Z.Dims()
		learned := make([][]bool, n)
		for i := range learned {
			learned[i] = make([]bool, k)
			for f := range learned[i] {
				learned[i][f] = a.Result.Z.At(i, f) != 0
			}
		}
		for j, m := range scenes.MatchObjects(truth.Codes, learned) {
			if m.Agreement < 0.95 {
				continue // not found at K = 5 on the raw pixels: nothing to orient
			}
			found++
			if departs(a, m.Feature) == m.Complement {
				t.Errorf("set %d, %s: feature %d read the wrong way (its owners are the pictures %s it)",
					si+1, truth.Objects[j], m.Feature, map[bool]string{true: "without", false: "with"}[m.Complement])
			}
		}
	}
	if found < 9 {
		t.Errorf("only %d objects found to orient", found)
	}
	a, err := Analyze(context.Background(), Request{Source: Source{Dir: sharedData(t, "tabletop")}, PCA: DefaultPCA,
		Algorithm: "stepwise", Options: learn.Options{Restarts: 100, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	empty := -1
	for i, name := range a.Data.Names {
		if name == "Picture_60.jpg" {
			empty = i
		}
	}
	_, k := a.Result.Z.Dims()
	for f := 0; f < k; f++ {
		if f == a.BaseIndex() {
			continue
		}
		if owned := a.Result.Z.At(empty, f) != 0; departs(a, f) == owned {
			t.Errorf("tabletop feature %d: the empty table owns it %v, and its owners depart from the scene %v", f, owned, !owned)
		}
	}
}
