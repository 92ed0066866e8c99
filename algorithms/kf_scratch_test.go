package algorithms

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

func TestScratchSynthRate(t *testing.T) {
	for _, refine := range []bool{false, true} {
		kfRefine = refine
		t0 := time.Now()
		line := fmt.Sprint("refine ", refine, ":")
		for _, seed := range []uint64{81, 11, 5, 6, 7} {
			rng := rand.New(rand.NewPCG(seed, seed+1))
			X, _, _ := kfSynthetic(rng, 100, 5, 20, 10, 1e-3)
			res, _ := KFeatures(context.Background(), X, Options{K: 5, Restarts: 1000, Seed: 1})
			var even, odd int
			for r, o := range res.RestartObjectives {
				if o < 0.01 {
					if r%2 == 0 {
						even++
					} else {
						odd++
					}
				}
			}
			line += fmt.Sprintf(" %d/%d", even, odd)
		}
		t.Log(line, time.Since(t0))
		for _, f := range []string{"/tmp/kfscratch/tabletop_libjpeg.bin"} {
			X := loadScratch(t, f)
			line := ""
			t0 := time.Now()
			for k := 1; k <= 8; k++ {
				res, _ := KFeatures(context.Background(), X, Options{K: k, Restarts: 1000, Seed: 1})
				line += fmt.Sprintf(" %.3f", res.Objective)
			}
			t.Log(line, time.Since(t0))
		}
	}
}
