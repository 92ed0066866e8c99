package assets

import (
	"bytes"
	"image"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"featurelab/assets/samplegen"
	"featurelab/internal/accuracy"
)

// TestEmbeddedMatchesGenerator is the guard against drift: the embedded files must be
// byte for byte what samplegen renders now, with nothing missing and nothing extra.
func TestEmbeddedMatchesGenerator(t *testing.T) {
	accuracy.Check(t)
	const fix = "; run `go generate ./assets` and commit assets/samples and assets/icon.png"
	sets := samplegen.All()
	var setNames []string
	for _, s := range sets {
		setNames = append(setNames, s.Name)
		var want []string
		for _, f := range s.Files() {
			want = append(want, f.Name)
			got, err := fs.ReadFile(Samples(), s.Name+"/"+f.Name)
			if err != nil {
				t.Fatalf("%s/%s: %v%s", s.Name, f.Name, err, fix)
			}
			if !bytes.Equal(got, f.Data) {
				t.Fatalf("embedded %s/%s differs from the generator's%s", s.Name, f.Name, fix)
			}
		}
		entries, err := fs.ReadDir(Samples(), s.Name)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("embedded %s holds %d files, the generator %d%s", s.Name, len(got), len(want), fix)
		}
	}
	if !slices.Equal(setNames, Names()) {
		t.Fatalf("generator sets %v, Names %v", setNames, Names())
	}
	top, _ := fs.ReadDir(Samples(), ".")
	if len(top) != len(sets) {
		t.Fatalf("embedded samples hold %d entries, want %d%s", len(top), len(sets), fix)
	}
	if !bytes.Equal(Icon(), samplegen.Icon()) {
		t.Fatal("embedded icon.png differs from the generator's" + fix)
	}
}

func TestNames(t *testing.T) {
	want := []string{"tabletop", "dice", "tetris", "cards", "faces"}
	got := Names()
	if !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	got[0] = "changed"
	if Names()[0] != "tabletop" {
		t.Fatal("Names returns the package's own slice")
	}
	for _, p := range []string{"tabletop/scene_001.jpg", "dice/truth.csv", "tetris/tetris_100.pfm", "cards/A_of_hearts_4.png", "faces/features.txt"} {
		if _, err := fs.Stat(Samples(), p); err != nil {
			t.Errorf("Samples(): %v", err)
		}
	}
}

func TestIcon(t *testing.T) {
	m, err := png.Decode(bytes.NewReader(Icon()))
	if err != nil {
		t.Fatal(err)
	}
	if b := m.Bounds(); b != image.Rect(0, 0, 256, 256) {
		t.Fatalf("icon is %v, want 256×256", b)
	}
	if _, _, _, a := m.At(0, 0).RGBA(); a != 0 {
		t.Error("icon corner is not transparent")
	}
	if _, _, _, a := m.At(128, 128).RGBA(); a != 0xffff {
		t.Error("icon centre is not opaque")
	}
}

func TestWriteSet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "folder")
	if err := WriteSet(dir, "dice"); err != nil {
		t.Fatal(err)
	}
	entries, _ := fs.ReadDir(Samples(), "dice")
	for _, e := range entries {
		got, err := os.ReadFile(filepath.Join(dir, "dice", e.Name()))
		want, _ := fs.ReadFile(Samples(), "dice/"+e.Name())
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: %v, or content differs", e.Name(), err)
		}
	}
	err := WriteSet(dir, "dice")
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("second write: %v, want an 'already exists' error", err)
	}
	if err := WriteSet(dir, "nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Fatalf("unknown set: %v", err)
	}
}

// TestWriteAllRefusesBeforeWriting checks that one existing file stops WriteAll before it
// writes anything, so a refused call leaves the folder as it was.
func TestWriteAllRefusesBeforeWriting(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "faces"), 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "faces", "truth.csv")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteAll(dir)
	if err == nil || !strings.Contains(err.Error(), mine) {
		t.Fatalf("WriteAll over an existing file: %v, want an error naming %s", err, mine)
	}
	if _, err := os.Stat(filepath.Join(dir, "tabletop")); err == nil {
		t.Error("WriteAll wrote tabletop before refusing")
	}
	if got, _ := os.ReadFile(mine); string(got) != "mine" {
		t.Error("the existing file was changed")
	}
	if err := os.Remove(mine); err != nil {
		t.Fatal(err)
	}
	if err := WriteAll(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range Names() {
		if _, err := os.Stat(filepath.Join(dir, name, "truth.csv")); err != nil {
			t.Error(err)
		}
	}
}
