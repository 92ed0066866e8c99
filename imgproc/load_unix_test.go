//go:build unix

package imgproc

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	must(os.Symlink("pipe", filepath.Join(dir, "pipe-link.png")))
	must(os.Symlink("/dev/null", filepath.Join(dir, "null.png")))
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.png", "link.png", "sub/b.png"}; !equalStrings(ds.Names, want) {
		t.Errorf("names %v, want %v", ds.Names, want)
	}
	want := []Skip{{"broken.png", "unreadable link: no such file or directory"},
		{"null.png", "a link to a character device, not to a regular file"},
		{"pipe", "not a regular file but a FIFO (named pipe)"},
		{"pipe-link.png", "a link to a FIFO (named pipe), not to a regular file"}}
	if !slices.Equal(ds.Skipped, want) {
		t.Errorf("skipped %v, want %v", ds.Skipped, want)
	}
}

// TestAFIFOSwappedInIsNotWaitedFor: a FIFO that takes a picture's place after the folder
// was listed is opened without waiting for a writer and refused on the descriptor, so
// the decoder says why at once instead of hanging the load.
func TestAFIFOSwappedInIsNotWaitedFor(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "a.png"), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	d := decodeFile(dirFS(dir), "a.png", "a.png", DefaultMaxPixels, nil, &buffers{})
	if want := "unreadable: not a regular file but a FIFO (named pipe)"; d.skip != want {
		t.Errorf("skip %q, want %q", d.skip, want)
	}
}

// TestReadsAreBoundedByTheBudget: a sparse file of 1 GiB is refused from its size without
// a byte read, and a PGM whose comment runs on for 100 MB is refused once its header
// passes 64 MB — neither costs what it claims.
func TestReadsAreBoundedByTheBudget(t *testing.T) {
	dir := t.TempDir()
	sparse := func(name string, head []byte, size int64) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(head); err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	sparse("huge.tif", []byte("II*\x00\xf0\xff\xff\x3f"), 1<<30)
	sparse("comment.pgm", []byte("P5\n#"), 100<<20)
	for _, tc := range []struct{ name, want string }{
		{"huge.tif", "a file of 1024 MB, more than a picture within the 50 MP budget can need (826 MB)"},
		{"comment.pgm", "its header runs past 64 MB before saying the picture's size"},
	} {
		d := decodeFile(dirFS(dir), tc.name, tc.name, DefaultMaxPixels, nil, &buffers{})
		if !strings.Contains(d.skip, tc.want) {
			t.Errorf("%s: skip %q, want …%s", tc.name, d.skip, tc.want)
		}
	}
}

// TestNamesThatAreNotUTF8Load: a Latin-1 name ("café.png" written by an old camera or
// archive, byte 0xE9) and a folder named so load by their bytes, keep those bytes in
// Names, and open again by them; before, fs.ValidPath refused them as "unreadable:
// invalid argument". A name that climbs out of the folder stays refused.
func TestNamesThatAreNotUTF8Load(t *testing.T) {
	dir := t.TempDir()
	latin1, folder := "caf\xe9.png", "\xe9t\xe9"
	writeFiles(t, dir, map[string][]byte{latin1: encodePNG(t, photo(0)), folder + "/b.png": encodePNG(t, photo(1)), "c.png": encodePNG(t, photo(2))})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err) // writeFiles made the files, so the file system takes such names
	}
	if want := []string{"c.png", latin1, folder + "/b.png"}; !slices.Equal(ds.Names, want) || len(ds.Skipped) > 0 {
		t.Fatalf("names %q, skipped %v; want %q", ds.Names, ds.Skipped, want)
	}
	for _, name := range ds.Names {
		if _, err := OpenFile(filepath.Join(dir, name), 0); err != nil {
			t.Errorf("open %q again: %v", name, err)
		}
	}
	for _, bad := range []string{"../x.png", "a/../../x.png", "/etc/passwd", "a//b.png", ""} {
		if _, err := dirFS(dir).Open(bad); err == nil {
			t.Errorf("%q opened, want refused", bad)
		}
	}
}
