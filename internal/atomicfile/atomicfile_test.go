package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
