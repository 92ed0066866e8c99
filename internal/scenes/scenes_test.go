package scenes

import (
	"bytes"
	"os"
	"path/filepath"
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
