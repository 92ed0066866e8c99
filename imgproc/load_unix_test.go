//go:build unix

package imgproc

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLoadSpecialFiles: links to files are followed, links to folders are not walked (they
// could loop), broken links and pipes are skipped — a pipe must never be opened, or the
// load would hang.
func TestLoadSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.png": encodePNG(t, photo(0)), "sub/b.png": encodePNG(t, photo(1))})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Skipf("cannot make special files here: %v", err)
		}
	}
	must(os.Symlink("a.png", filepath.Join(dir, "link.png")))
	must(os.Symlink("sub", filepath.Join(dir, "loop")))
	must(os.Symlink("nowhere.png", filepath.Join(dir, "broken.png")))
	must(syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644))
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.png", "link.png", "sub/b.png"}; !equalStrings(ds.Names, want) {
		t.Errorf("names %v, want %v", ds.Names, want)
	}
	want := []Skip{{"broken.png", "unreadable link: no such file or directory"}, {"pipe", "not a regular file"}}
	if len(ds.Skipped) != len(want) || ds.Skipped[0] != want[0] || ds.Skipped[1] != want[1] {
		t.Errorf("skipped %v, want %v", ds.Skipped, want)
	}
}
