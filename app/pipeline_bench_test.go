package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLoadAndPCATabletop is the foundation's speed target: load the 100 real tabletop
// photos and project them to 100 principal components (≤ 1.5 s on 2 cores).
func BenchmarkLoadAndPCATabletop(b *testing.B) {
	dir := filepath.Join("..", "..", "shared", "data", "tabletop")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("real data not here (%v)", err)
	}
	req := Request{Source: Source{Dir: dir}, PCA: 100}
	for b.Loop() {
		p, err := Prepare(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		if n, d := p.Scores.Dims(); n != 100 || d != 99 {
			b.Fatalf("scores %d×%d", n, d)
		}
	}
}
