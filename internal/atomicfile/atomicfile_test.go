package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := Write(path, false, write("one")); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, false, write("two")); !errors.Is(err, ErrExists) {
		t.Fatalf("second write without overwrite: got %v, want ErrExists", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Fatalf("file changed to %q without overwrite", b)
	}
	if err := Write(path, true, func(w io.Writer) error { return errors.New("boom") }); err == nil {
		t.Fatal("a failing writer must fail the export")
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Fatalf("a failed export damaged the file: %q", b)
	}
	if err := Write(path, true, write("three")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "three" {
		t.Fatalf("overwrite gave %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

// TestWriteRemovesWhatAKilledExportLeft: the temporary file of an export whose process
// is gone (kill -9 mid-write) is removed by the next export of that file; one whose
// writer still runs is left alone, and so are other files.
func TestWriteRemovesWhatAKilledExportLeft(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("no process to outlive: %v", err)
	}
	dead := cmd.Process.Pid
	stale := fmt.Sprintf(".out.png.%d.123.tmp", dead)
	live := fmt.Sprintf(".out.png.%d.456.tmp", os.Getpid())
	for _, name := range []string{stale, live, ".other.png.1.2.tmp", "keep.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(filepath.Join(dir, "out.png"), true, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{live, ".other.png.1.2.tmp", "keep.txt", "out.png"}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("folder holds %q, want %q", names, want)
	}
}

// TestWriteOverReplacesOnlyWhatItWrote: a write replaces a regular file its Mine
// recognises — through a symbolic link, the file the link leads to — and refuses, in an
// error naming the user's path, a file it does not recognise, a FIFO, a device, a folder
// and a missing folder, leaving each as it was; Check refuses the same before any work.
func TestWriteOverReplacesOnlyWhatItWrote(t *testing.T) {
	mine := func(r io.Reader) bool {
		b, _ := io.ReadAll(io.LimitReader(r, 4))
		return string(b) == "MINE"
	}
	tests := []struct {
		name string
		make func(t *testing.T, path string) // what is at path before the write
		want error                           // nil: the write replaces it
	}{
		{"new file", func(*testing.T, string) {}, nil},
		{"a file it wrote", func(t *testing.T, p string) { writeFile(t, p, "MINE old") }, nil},
		{"a link to a file it wrote", func(t *testing.T, p string) {
			writeFile(t, p+".real", "MINE old")
			symlink(t, filepath.Base(p)+".real", p)
		}, nil},
		{"a user's file", func(t *testing.T, p string) { writeFile(t, p, "a picture") }, ErrNotMine},
		{"a link to a user's file", func(t *testing.T, p string) {
			writeFile(t, p+".real", "a picture")
			symlink(t, p+".real", p)
		}, ErrNotMine},
		{"a FIFO", func(t *testing.T, p string) {
			if err := mkfifo(p); err != nil {
				t.Skipf("no FIFO here: %v", err)
			}
		}, ErrNotRegular},
		{"a link to a device", func(t *testing.T, p string) { symlink(t, os.DevNull, p) }, ErrNotRegular},
		{"a folder", func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, ErrNotRegular},
		{"a missing folder", func(*testing.T, string) {}, fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.png")
			if tt.name == "a missing folder" {
				path = filepath.Join(dir, "missing", "out.png")
			}
			tt.make(t, path)
			before := snapshot(t, dir)
			checked := Check(path, mine)
			err := WriteOver(path, mine, func(w io.Writer) error { _, err := io.WriteString(w, "MINE new"); return err })
			if tt.want == nil {
				if err != nil || checked != nil {
					t.Fatalf("write: %v, check: %v; want both to pass", err, checked)
				}
				if b, err := os.ReadFile(path); err != nil || string(b) != "MINE new" {
					t.Errorf("%s holds %q (%v)", path, b, err)
				}
				if st, err := os.Lstat(path); err == nil && tt.name == "a link to a file it wrote" && st.Mode()&fs.ModeSymlink == 0 {
					t.Error("the link was replaced by a file")
				}
				return
			}
			for what, err := range map[string]error{"check": checked, "write": err} {
				if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), fmt.Sprintf("%q", path)) || strings.Contains(err.Error(), ".tmp") {
					t.Errorf("%s: %v; want %v naming %q and no temporary file", what, err, tt.want, path)
				}
			}
			if after := snapshot(t, dir); !maps.Equal(before, after) {
				t.Errorf("the folder changed: %v, then %v", before, after)
			}
		})
	}
}

// TestWriteErrorNamesThePath: a write that fails names the user's path and what went
// wrong, never the temporary file it was writing.
func TestWriteErrorNamesThePath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "codes.csv")
	err := Write(path, true, func(w io.Writer) error {
		_, err := os.Open(filepath.Join(dir, ".codes.csv.1.2.tmp"))
		return err
	})
	if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("%q: ", path)) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("got %v, want an error that starts with %q and names no temporary file", err, path)
	}
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, to, path string) {
	t.Helper()
	if err := os.Symlink(to, path); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// snapshot is each entry of dir by name: its mode and, for a regular file, its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		st, _ := os.Lstat(p)
		out[e.Name()] = st.Mode().String()
		if st.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			out[e.Name()] += " " + string(b)
		}
	}
	return out
}
