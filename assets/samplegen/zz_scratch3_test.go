package samplegen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestScratchDist(t *testing.T) {
	for _, cfg := range []struct {
		name string
		gray bool
	}{{"tabletop", false}, {"tabletop", true}} {
		X, codes := scratchScores(t, cfg.name, cfg.gray, 100)
		o := oracleObj(X, codes)
		rng := rand.New(rand.NewPCG(7, 8))
		line := ""
		hit := 0
		for K := 3; K <= 7; K++ {
			best := math.Inf(1)
			for r := 0; r < 100; r++ {
				_, ob := kfeat(X, K, rng)
				best = math.Min(best, ob)
				if K == 5 && ob < o*1.001 {
					hit++
				}
			}
			line += fmt.Sprintf(" K=%d %.2f", K, best)
		}
		t.Logf("%s gray=%v N=%d oracle %.2f; hits %d/100; curve %s", cfg.name, cfg.gray, len(X), o, hit, line)
	}
}
