package scenes

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

const dataDir = "../../../shared/data"

func TestWriteIsDeterministicAndTrue(t *testing.T) {
	specs := Sets(dataDir)
	if _, err := os.Stat(specs[0].Scene); err != nil {
		t.Skipf("real data absent (%v): the scenes are built from ../shared/data beside the checkout", err)
	}
	spec := specs[0]
	spec.N = 8
	a, b := t.TempDir(), t.TempDir()
	fa, err := Write(a, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(b, spec); err != nil {
		t.Fatal(err)
	}
	for _, name := range append(fa.Names, TruthFile) {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Fatalf("%s differs between two writes of one spec", name)
		}
	}
	if len(fa.Codes) != 8 || len(fa.Codes[0]) != 4 || len(fa.Gains) != 8 {
		t.Fatalf("folder %+v", fa)
	}
	for _, g := range fa.Gains {
		if g < 0.95 || g > 1.05 {
			t.Errorf("gain %v outside ±5 %%", g)
		}
	}
}

func TestMatchObjects(t *testing.T) {
	truth := [][]bool{{true, false}, {false, true}, {true, true}, {false, false}}
	learned := [][]bool{{false, true, true}, {true, false, false}, {false, false, true}, {true, true, false}}
	got := MatchObjects(truth, learned)
	// Object 0 is feature 0's complement exactly; object 1 is feature 2's complement on
	// three of four.
	if got[0] != (Match{Feature: 0, Complement: true, Agreement: 1}) {
		t.Errorf("object 0: %+v", got[0])
	}
	if got[1].Agreement != 1 || got[1].Feature != 1 || !got[1].Complement {
		t.Errorf("object 1: %+v", got[1])
	}
}

// TestRandomFoldersAreSetsOfTheSameKind: a folder drawn from a seed is the same for the
// same seed, another for another, with four objects apart from each other inside the
// picture, each in 20–90 % of 120–200 pictures.
func TestRandomFoldersAreSetsOfTheSameKind(t *testing.T) {
	if _, err := os.Stat(filepath.Join(dataDir, "bsds500-train")); err != nil {
		t.Skipf("real data absent (%v): the scenes are built from ../shared/data beside the checkout", err)
	}
	a, err := Random(dataDir, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Random(dataDir, 7)
	c, _ := Random(dataDir, 8)
	if !reflect.DeepEqual(a, b) || reflect.DeepEqual(a, c) {
		t.Errorf("seed 7 twice gives the same folder: %v; seeds 7 and 8 differ: %v", reflect.DeepEqual(a, b), !reflect.DeepEqual(a, c))
	}
	for _, spec := range []Spec{a, c} {
		if spec.N < 120 || spec.N > 200 || len(spec.Objects) != 4 {
			t.Errorf("%d pictures, %d objects", spec.N, len(spec.Objects))
		}
		for i, o := range spec.Objects {
			if o.Presence < 0.2 || o.Presence > 0.9 || !o.Place.In(image.Rect(0, 0, spec.Width, spec.Height)) {
				t.Errorf("%s: presence %.2f at %v", o.Name, o.Presence, o.Place)
			}
			for _, p := range spec.Objects[i+1:] {
				if o.Place.Overlaps(p.Place) {
					t.Errorf("%s at %v overlaps %s at %v", o.Name, o.Place, p.Name, p.Place)
				}
			}
		}
	}
	if _, err := Random(t.TempDir(), 1); err == nil {
		t.Error("a data folder with no photos gives a folder")
	}
}
