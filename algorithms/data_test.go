package algorithms

import (
	"encoding/binary"
	"os"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TEMPORARY (development): reads scores precomputed from ../shared/data by a scratch
// program. The lead will switch these to imgproc.Load + pca.Fit once those packages land.
// Format: int32 N, int32 D, then N·D float64 little-endian, row-major.
var dataCache sync.Map

func loadScratch(tb testing.TB, path string) *mat.Dense {
	tb.Helper()
	if v, ok := dataCache.Load(path); ok {
		return mat.DenseCopyOf(v.(*mat.Dense))
	}
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("real data not available (%v); it lives in ../shared/data", err)
	}
	defer f.Close()
	var n, d int32
	if err := binary.Read(f, binary.LittleEndian, &n); err != nil {
		tb.Fatal(err)
	}
	if err := binary.Read(f, binary.LittleEndian, &d); err != nil {
		tb.Fatal(err)
	}
	data := make([]float64, int(n)*int(d))
	if err := binary.Read(f, binary.LittleEndian, data); err != nil {
		tb.Fatal(err)
	}
	m := mat.NewDense(int(n), int(d), data)
	dataCache.Store(path, m)
	return mat.DenseCopyOf(m)
}

// tabletopScores returns the 100 real tabletop photos (colour, [0,1]) as PCA-100 scores
// in the reference scaling (100 × 99).
func tabletopScores(tb testing.TB) *mat.Dense { return loadScratch(tb, "/tmp/tabletop_pca100.bin") }

// diceRaw returns the 100 reference dice pictures as raw [0,1] grey pixels (100 × 196), --pca 0.
func diceRaw(tb testing.TB) *mat.Dense { return loadScratch(tb, "/tmp/dice_raw.bin") }

// orlScores returns the 400 ORL faces (grey, [0,1]) as PCA-100 scores (400 × 100).
func orlScores(tb testing.TB) *mat.Dense { return loadScratch(tb, "/tmp/orl_pca100.bin") }
