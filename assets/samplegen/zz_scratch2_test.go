package samplegen

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func oracleObj(X [][]float64, codes []string) float64 {
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
	var zz, rhs, A, R mat.Dense
	zz.Mul(Zm.T(), Zm)
	rhs.Mul(Zm.T(), Xm)
	A.Solve(&zz, &rhs)
	R.Mul(Zm, &A)
	R.Sub(Xm, &R)
	return math.Pow(mat.Norm(&R, 2), 2)
}

func TestScratchOracle(t *testing.T) {
	for _, cfg := range []struct {
		name string
		gray bool
	}{{"tabletop", false}, {"tabletop", true}, {"faces", true}} {
		X, codes := scratchScores(t, cfg.name, cfg.gray, 100)
		t.Logf("%s gray=%v oracle K=5 objective %.2f", cfg.name, cfg.gray, oracleObj(X, codes))
	}
}
