package algorithms

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/floats"
)

func TestScratchK1(t *testing.T) {
	X := tabletopScores(t)
	kfInitMode = 1
	res, _ := KFeatures(context.Background(), X, Options{K: 1, Restarts: 10, Seed: 1})
	n, d := X.Dims()
	in := make([]bool, n)
	sum := make([]float64, d)
	cnt := 0
	for i := 0; i < n; i++ {
		if res.Z.At(i, 0) == 1 {
			in[i] = true
			floats.Add(sum, X.RawRowView(i))
			cnt++
		}
	}
	tot := 0.0
	for i := 0; i < n; i++ {
		tot += floats.Dot(X.RawRowView(i), X.RawRowView(i))
	}
	obj := func(sum []float64, cnt int) float64 {
		if cnt == 0 {
			return tot
		}
		return tot - floats.Dot(sum, sum)/float64(cnt)
	}
	t.Logf("start obj %.4f (res %.4f) |S|=%d", obj(sum, cnt), res.Objective, cnt)
	tmp := make([]float64, d)
	for improved := true; improved; {
		improved = false
		for i := 0; i < n; i++ {
			copy(tmp, sum)
			c := cnt
			if in[i] {
				floats.Sub(tmp, X.RawRowView(i))
				c--
			} else {
				floats.Add(tmp, X.RawRowView(i))
				c++
			}
			if o := obj(tmp, c); o < obj(sum, cnt)-1e-9 {
				copy(sum, tmp)
				cnt = c
				in[i] = !in[i]
				improved = true
				t.Logf("flip %d -> %.4f |S|=%d", i, o, cnt)
			}
		}
	}
}
