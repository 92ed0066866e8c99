package algorithms

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/imgproc"
	"featurelab/pca"
)

// The real data sets live in ../shared/data (development machines and CI), never in the
// project. Each is loaded and projected once per test binary and copied per caller.
var dataCache sync.Map

func realScores(tb testing.TB, name string, color imgproc.ColorMode, components int) *mat.Dense {
	tb.Helper()
	key := name + string(rune('0'+int(color))) + string(rune(components))
	if v, ok := dataCache.Load(key); ok {
		return mat.DenseCopyOf(v.(*mat.Dense))
	}
	dir := filepath.Join("..", "..", "shared", "data", name)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("real data set %s not here (%v); it lives in ../shared/data", name, err)
	}
	ds, err := imgproc.Load(context.Background(), dir, imgproc.Options{Color: color})
	if err != nil {
		tb.Fatal(err)
	}
	_, X, err := pca.Fit(ds.Pixels, pca.Options{Components: components})
	if err != nil {
		tb.Fatal(err)
	}
	dataCache.Store(key, X)
	return mat.DenseCopyOf(X)
}

// tabletopScores returns the 100 real tabletop photos (colour, [0,1]) as PCA-100 scores
// in the reference scaling (100 × 99).
func tabletopScores(tb testing.TB) *mat.Dense {
	return realScores(tb, "tabletop", imgproc.ColorAuto, 100)
}

// diceRaw returns the 100 reference dice pictures as raw [0,1] grey pixels (100 × 196), --pca 0.
func diceRaw(tb testing.TB) *mat.Dense { return realScores(tb, "dice", imgproc.ColorGray, 0) }

// orlScores returns the 400 ORL faces (grey, [0,1]) as PCA-100 scores (400 × 100).
func orlScores(tb testing.TB) *mat.Dense { return realScores(tb, "orl_faces", imgproc.ColorGray, 100) }
