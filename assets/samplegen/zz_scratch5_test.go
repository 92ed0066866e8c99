package samplegen

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestScratchInspect(t *testing.T) {
	X, codes := scratchScores(t, "tabletop", false, 100)
	rng := rand.New(rand.NewPCG(7, 8))
	best := math.Inf(1)
	var bz [][]bool
	for r := 0; r < 100; r++ {
		z, ob := kfeat(X, 5, rng)
		if ob < best {
			best, bz = ob, z
		}
	}
	for k := 0; k < 5; k++ {
		line := ""
		cnt := 0
		for n := range bz {
			if bz[n][k] {
				cnt++
			}
		}
		for j := 0; j < 4; j++ {
			ag := 0
			for n := range bz {
				if (codes[n][j] == '1') == bz[n][k] {
					ag++
				}
			}
			line += " " + string(rune('0'+ag/10)) + string(rune('0'+ag%10))
		}
		t.Logf("learned %d owned by %d: agreement with true %s", k, cnt, line)
	}
	t.Logf("best %.3f", best)
}
