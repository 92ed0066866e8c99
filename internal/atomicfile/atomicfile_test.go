package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
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
