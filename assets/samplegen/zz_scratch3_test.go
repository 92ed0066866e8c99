package samplegen

import (
	"math/rand/v2"
	"sort"
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
		var objs []float64
		for r := 0; r < 100; r++ {
			_, ob := kfeat(X, 5, rng)
			objs = append(objs, ob)
		}
		sort.Float64s(objs)
		hit := 0
		for _, v := range objs {
			if v < o*1.001 {
				hit++
			}
		}
		t.Logf("%s gray=%v oracle %.2f; hits %d/100; restarts best %.2f", cfg.name, cfg.gray, o, hit, objs[:6])
	}
}
