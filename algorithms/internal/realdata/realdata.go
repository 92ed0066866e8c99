// Package realdata gives the learners' tests and benchmarks the real data sets of
// ../shared/data as the matrices the learners read (PCA scores or raw pixels). The data
// live beside the project, never in it: a test that asks for a set that is not there is
// skipped with a message that says where it should be.
package realdata

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
	"featurelab/imgproc"
	"featurelab/pca"
)

// cache holds each data set once per test binary; callers get copies.
var cache sync.Map

// Dir returns the folder of the real data set name (e.g. "tabletop"), found in a
// shared/data folder beside the project by walking up from the working directory.
func Dir(name string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, "shared", "data", name)
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no shared/data/%s above %s", name, wd)
		}
	}
}

// scores loads the data set name in the colour mode and projects it to the number of
// principal components (0: raw pixels), in the reference scaling of the MAD-Bayes code.
func scores(tb testing.TB, name string, color imgproc.ColorMode, components int) *mat.Dense {
	tb.Helper()
	key := fmt.Sprint(name, color, components)
	if v, ok := cache.Load(key); ok {
		return mat.DenseCopyOf(v.(*mat.Dense))
	}
	dir, err := Dir(name)
	if err != nil {
		tb.Skipf("real data set %s not here (%v); it lives in ../shared/data", name, err)
	}
	ds, err := imgproc.Load(context.Background(), dir, imgproc.Options{Color: color})
	if err != nil {
		tb.Fatal(err)
	}
	_, X, err := pca.Fit32(ds.Pixels, len(ds.Names), ds.Values(), pca.Options{Components: components})
	if err != nil {
		tb.Fatal(err)
	}
	cache.Store(key, X)
	return mat.DenseCopyOf(X)
}

// Tabletop returns the 100 real tabletop photos (colour, [0,1]) as PCA-100 scores in the
// reference scaling (100 × 99).
func Tabletop(tb testing.TB) *mat.Dense { return scores(tb, "tabletop", imgproc.ColorAuto, 100) }

// DiceRaw returns the 100 reference dice pictures as raw [0,1] grey pixels (100 × 196).
func DiceRaw(tb testing.TB) *mat.Dense { return scores(tb, "dice", imgproc.ColorGray, 0) }

// ORL returns the 400 ORL faces (grey, [0,1]) as PCA-100 scores (400 × 100).
func ORL(tb testing.TB) *mat.Dense { return scores(tb, "orl_faces", imgproc.ColorGray, 100) }

// BenchTabletop times one learner run with opt on the Tabletop scores, allocations
// reported. learner has the shape of algorithms.Learner.
func BenchTabletop(b *testing.B, learner func(context.Context, *mat.Dense, learn.Options) (*learn.Result, error), opt learn.Options) {
	X := Tabletop(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := learner(context.Background(), X, opt); err != nil {
			b.Fatal(err)
		}
	}
}
