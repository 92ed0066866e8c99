package algorithms

import "testing"

func TestIBPScratchGewekeParts(t *testing.T) {
	for _, seed := range []uint64{4, 5} {
		ibpGewekeSeed = seed
		for _, v := range []struct{ block, col, maxNew int }{{6, 20, 4}, {1, 0, 4}} {
			cfg := ibpGewekeConfig(ibpNoBug)
			cfg.block, cfg.colMoves, cfg.maxNew = v.block, v.col, v.maxNew
			zs := ibpGewekeZcfg(t, cfg, 600000)
			t.Logf("%d %+v: K %.2f ones %.2f alpha %.2f sx %.2f sa %.2f", seed, v, zs[0], zs[1], zs[2], zs[3], zs[4])
		}
	}
}
