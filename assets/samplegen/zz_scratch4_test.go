package samplegen

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestScratchEnergy(t *testing.T) {
	for _, cfg := range []struct {
		name string
		gray bool
	}{{"faces", true}, {"tabletop", true}, {"tabletop", false}} {
		X, codes := scratchScores(t, cfg.name, cfg.gray, 100)
		N, D := len(X), len(X[0])
		K := len(codes[0]) + 1
		Zm := mat.NewDense(N, K, nil)
		for n, c := range codes {
			Zm.Set(n, 0, 1)
			for j, b := range c {
				if b == '1' {
					Zm.Set(n, j+1, 1)
				}
			}
		}
		Xm := mat.NewDense(N, D, nil)
		for n := range X {
			Xm.SetRow(n, X[n])
		}
		var zz, rhs, A mat.Dense
		zz.Mul(Zm.T(), Zm)
		rhs.Mul(Zm.T(), Xm)
		A.Solve(&zz, &rhs)
		var norms []float64
		for k := 0; k < K; k++ {
			r := mat.Row(nil, k, &A)
			norms = append(norms, math.Round(100*mat.Norm(mat.NewVecDense(D, r), 2)*mat.Norm(mat.NewVecDense(D, r), 2))/100)
		}
		// cosines
		var cos []float64
		for i := 1; i < K; i++ {
			for j := i + 1; j < K; j++ {
				a, b := mat.NewVecDense(D, mat.Row(nil, i, &A)), mat.NewVecDense(D, mat.Row(nil, j, &A))
				cos = append(cos, math.Round(100*mat.Dot(a, b)/(mat.Norm(a, 2)*mat.Norm(b, 2)))/100)
			}
		}
		t.Logf("%s gray=%v |A_k|^2 %v cos %v oracle %.2f", cfg.name, cfg.gray, norms, cos, oracleObj(X, codes))
		_ = rand.New
	}
}
