package algorithms

import (
	"context"
	"fmt"
	"testing"
)

func TestScratchTabletop(t *testing.T) {
	X := tabletopScores(t)
	for mode := 0; mode < 3; mode++ {
		kfInitMode = mode
		line := fmt.Sprintf("mode %d:", mode)
		for k := 1; k <= 8; k++ {
			var s string
			for seed := uint64(1); seed <= 3; seed++ {
				res, err := KFeatures(context.Background(), X, Options{K: k, Restarts: 1000, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				s += fmt.Sprintf("%.3f/", res.Objective)
			}
			line += " " + s
		}
		t.Log(line)
	}
}
