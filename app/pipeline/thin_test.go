package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
)

// TestThinPicturesAreRead: pictures one pixel wide have no outline to read; the default
// run (K from objects, the reading of each feature) keeps the form as found instead of
// failing (it once dereferenced a picture too small to prepare).
func TestThinPicturesAreRead(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 12; i++ {
		var b strings.Builder
		b.WriteString("P2\n1 40\n255\n")
		for y := 0; y < 40; y++ {
			v := 50
			if i%2 == 1 && y > 10 && y < 20 {
				v = 200 + (y*i)%50
			}
			fmt.Fprintln(&b, v)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%02d.pgm", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := result.Analyze(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA, Algorithm: algorithms.MustLookup("stepwise"),
		Options: learn.Options{Restarts: 20, Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Result.K < 1 || len(a.Features()) != a.Result.K {
		t.Fatalf("K = %d, %d features shown", a.Result.K, len(a.Features()))
	}
}
