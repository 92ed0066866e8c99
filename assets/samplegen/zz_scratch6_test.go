package samplegen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestScratchSim(t *testing.T) {
	for _, cfg := range []struct {
		E []float64
		N int
		p float64
	}{
		{[]float64{1, 1, 1, 1}, 64, 0.5},
		{[]float64{1, 1, 1, 1}, 100, 0.5},
		{[]float64{1, 1, 1, 1}, 200, 0.5},
		{[]float64{1, 1, 1, 1}, 64, 0.3},
		{[]float64{1, 1, 1, 1}, 100, 0.3},
		{[]float64{1, 1, 1, 1}, 64, 0.7},
	} {
		E := cfg.E
		N, D := cfg.N, 63
		tot := 0
		for rep := 0; rep < 3; rep++ {
			rng := rand.New(rand.NewPCG(uint64(rep), 4))
			codes := make([][]bool, N)
			for n := range codes {
				codes[n] = make([]bool, 4)
				for j := range codes[n] {
					codes[n][j] = rng.Float64() < cfg.p
				}
			}
			F := make([][]float64, 4)
			for j := range F {
				F[j] = make([]float64, D)
				for d := range F[j] {
					F[j][d] = rng.NormFloat64() * math.Sqrt(E[j]/float64(D))
				}
			}
			X := make([][]float64, N)
			cs := make([]string, N)
			for n := range X {
				X[n] = make([]float64, D)
				for d := range X[n] {
					X[n][d] = 0.05 * rng.NormFloat64()
					for j := range 4 {
						if codes[n][j] {
							X[n][d] += F[j][d]
						}
					}
				}
				cs[n] = codeString(codes[n])
			}
			o := oracleObj(X, cs)
			for r := 0; r < 100; r++ {
				_, ob := kfeat(X, 5, rng)
				if ob < o*1.001 {
					tot++
				}
			}
		}
		t.Log(fmt.Sprint(cfg), "hits", tot, "/300")
	}
}
