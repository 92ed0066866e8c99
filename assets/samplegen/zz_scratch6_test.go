package samplegen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestScratchSim(t *testing.T) {
	for _, E := range [][]float64{{1, 1, 1, 1}, {37, 16.5, 11.5, 4.2}, {8, 4, 2, 1}, {4, 3, 2, 1}, {16, 8, 4, 2}, {6, 4, 2.5, 1.5}, {1.2, 1, 1, 0.8}} {
		rng := rand.New(rand.NewPCG(3, 4))
		N, D := 64, 63
		codes := coveringCodes(rng, N, 4)
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
		hit, inf := 0, 0
		for r := 0; r < 100; r++ {
			_, ob := kfeat(X, 5, rng)
			if ob < o*1.001 {
				hit++
			}
			if math.IsInf(ob, 1) {
				inf++
			}
		}
		t.Log(fmt.Sprint(E), "hits", hit, "/100 inf", inf)
	}
}
