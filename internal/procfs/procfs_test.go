package procfs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestKB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "status")
	text := "Name:\tx\nVmHWM:\t  123456 kB\nMemAvailable:   7 kB\nBad:\tlots kB\nPages:\t12\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, field string
		want        int64
	}{
		{path, "VmHWM", 123456 << 10},
		{path, "MemAvailable", 7 << 10},
		{path, "Bad", 0},   // not a number
		{path, "Pages", 0}, // no unit
		{path, "Name", 0},
		{path, "Missing", 0},
		{filepath.Join(t.TempDir(), "none"), "VmHWM", 0},
	} {
		if got := KB(tc.path, tc.field); got != tc.want {
			t.Errorf("KB(%s) = %d, want %d", tc.field, got, tc.want)
		}
	}
}
