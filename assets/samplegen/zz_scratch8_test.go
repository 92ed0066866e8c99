package samplegen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestScratchReal(t *testing.T) {
	var rows [][]float64
	for i := 1; i <= 100; i++ {
		name := fmt.Sprintf("/work/shared/data/tabletop/Picture_%d.jpg", i)
		b, err := os.ReadFile(name)
		if err != nil {
			t.Skip(err)
		}
		rows = append(rows, decode(t, Image{Name: name, Data: b}).v)
	}
	N, P := len(rows), len(rows[0])
	sc := 1 / math.Sqrt(float64(N-1))
	mean := make([]float64, P)
	for _, r := range rows {
		for i, v := range r {
			mean[i] += v * sc / float64(N)
		}
	}
	Y := mat.NewDense(N, P, nil)
	for n, r := range rows {
		for i, v := range r {
			Y.Set(n, i, v*sc-mean[i])
		}
	}
	var G mat.SymDense
	G.SymOuterK(1, Y)
	var eig mat.EigenSym
	eig.Factorize(&G, true)
	vals := eig.Values(nil)
	var U mat.Dense
	eig.VectorsTo(&U)
	D := 99
	X := make([][]float64, N)
	for n := range X {
		X[n] = make([]float64, D)
		for d := 0; d < D; d++ {
			j := N - 1 - d
			X[n][d] = U.At(n, j) * math.Sqrt(math.Max(vals[j], 0))
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var objs []float64
	for r := 0; r < 100; r++ {
		_, ob := kfeat(X, 5, rng)
		objs = append(objs, ob)
	}
	sort.Float64s(objs)
	t.Logf("real tabletop K=5 best of 100: %.2f", objs[:15])
}
