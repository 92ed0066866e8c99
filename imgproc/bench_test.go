package imgproc

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// realData returns the folder of a real data set under ../shared/data, skipping the test
// or benchmark when it is absent (it is not part of the project).
func realData(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join("..", "..", "shared", "data", name)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("real data set %s not present (%v); it lives in /work/shared/data", name, err)
	}
	return dir
}

// BenchmarkLoadTabletop loads the 100 real 320×240 tabletop photos (all of JPEG decoding,
// colour conversion and the data matrix).
func BenchmarkLoadTabletop(b *testing.B) {
	dir := realData(b, "tabletop")
	b.ReportAllocs()
	for b.Loop() {
		ds, err := Load(context.Background(), dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(ds.Names) != 100 {
			b.Fatalf("%d images", len(ds.Names))
		}
	}
}
