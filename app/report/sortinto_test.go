package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSortIntoWritesAFolderPerFeatureAndCode: each image lands in the folder of every
// feature it owns (the base left out) and in the one of its code, under its own name, its
// subfolders joined into it; a second sort into the same folder writes nothing and says
// which file stood in its way.
func TestSortIntoWritesAFolderPerFeatureAndCode(t *testing.T) {
	src := t.TempDir()
	names := []string{"a.png", "b.png", filepath.Join("day 2", "c.png")}
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(src, filepath.Dir(n)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "sorted")
	n, err := SortInto(out, src, names, []string{"110", "101", "111"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"feature 2": {"a.png", "day 2 - c.png"},
		"feature 3": {"b.png", "day 2 - c.png"},
		"code 110":  {"a.png"},
		"code 101":  {"b.png"},
		"code 111":  {"day 2 - c.png"},
	}
	total := 0
	for folder, files := range want {
		entries, err := os.ReadDir(filepath.Join(out, folder))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
			b, err := os.ReadFile(filepath.Join(out, folder, e.Name()))
			if err != nil || !strings.HasSuffix(strings.ReplaceAll(string(b), "/", " - "), e.Name()) {
				t.Errorf("%s/%s holds %q (%v)", folder, e.Name(), b, err)
			}
		}
		if !slices.Equal(got, files) {
			t.Errorf("%s holds %v, want %v", folder, got, files)
		}
		total += len(files)
	}
	if dirs, _ := os.ReadDir(out); len(dirs) != len(want) || n != total {
		t.Errorf("%d folders and %d files written, want %d and %d (no folder for the base)", len(dirs), n, len(want), total)
	}
	if _, err := SortInto(out, src, names, []string{"110", "101", "111"}, 0); err == nil || !strings.Contains(err.Error(), "exists; nothing was written") {
		t.Errorf("sorting again: %v, want a refusal", err)
	}
}

// TestSortIntoRefusesTheImageFolder: the sorted links inside the image folder would be
// loaded as images next time.
func TestSortIntoRefusesTheImageFolder(t *testing.T) {
	src := t.TempDir()
	for _, out := range []string{src, filepath.Join(src, "sorted"), filepath.Join(src, ".", "a", "..", "b")} {
		if _, err := SortInto(out, src, nil, nil, -1); err == nil || !strings.Contains(err.Error(), "outside") {
			t.Errorf("sorting into %s: %v", out, err)
		}
	}
	if entries, _ := os.ReadDir(src); len(entries) != 0 {
		t.Errorf("the image folder holds %d entries", len(entries))
	}
}

// TestSortIntoWritesAllOrNothing: a sort that fails on its last image (a name longer than
// the file system allows) leaves nothing — no folder, no link — whether out existed or
// not, and a second try says what failed, not that files stand in its way; a symbolic
// link to the image folder is the image folder.
func TestSortIntoWritesAllOrNothing(t *testing.T) {
	src := t.TempDir()
	long := strings.Repeat("n", 200) + ".png"
	names := []string{"a.png", filepath.Join(strings.Repeat("d", 60), long)}
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(src, filepath.Dir(n)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	parent := t.TempDir()
	existing := filepath.Join(parent, "existing")
	if err := os.MkdirAll(filepath.Join(existing, "feature 2"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(parent, "new"), existing} {
		for try := range 2 {
			n, err := SortInto(out, src, names, []string{"11", "11"}, 0)
			if err == nil || n != 0 || strings.Contains(err.Error(), "exists") || strings.Contains(err.Error(), ".sorting") {
				t.Errorf("%s, try %d: %d written, %v; want a refusal that names what failed", out, try, n, err)
			}
		}
	}
	entries, _ := os.ReadDir(parent)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	inside, _ := os.ReadDir(filepath.Join(existing, "feature 2"))
	if !slices.Equal(got, []string{"existing"}) || len(inside) != 0 {
		t.Errorf("left %v, and %d files in existing/feature 2", got, len(inside))
	}
	link := filepath.Join(parent, "link")
	if err := os.Symlink(src, link); err != nil {
		t.Skip(err)
	}
	if _, err := SortInto(filepath.Join(link, "sorted"), src, names[:1], []string{"11"}, 0); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("sorting into a link to the images: %v", err)
	}
}
