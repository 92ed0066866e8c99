package algorithms

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

func scratchTetris(seed uint64) (*mat.Dense, [][]float64) {
	cells := [][][2]int{
		{{0, 0}, {0, 1}, {0, 2}, {0, 3}},
		{{1, 4}, {1, 5}, {2, 4}, {2, 5}},
		{{2, 0}, {3, 0}, {4, 0}, {3, 1}},
		{{3, 3}, {4, 2}, {4, 3}, {4, 4}},
		{{4, 5}, {5, 5}, {5, 4}, {5, 3}},
	}
	feats := make([][]float64, 5)
	for j, cs := range cells {
		feats[j] = make([]float64, 36)
		for _, c := range cs {
			feats[j][c[0]*6+c[1]] = 1
		}
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(100, 36, nil)
	for i := 0; i < 100; i++ {
		row := X.RawRowView(i)
		for j := range feats {
			if rng.Float64() < 0.5 {
				for p, v := range feats[j] {
					row[p] += v
				}
			}
		}
		for p := range row {
			row[p] += 0.1 * rng.NormFloat64()
		}
	}
	return X, feats
}

func TestIBPScratchTetris(t *testing.T) {
	X, _ := scratchTetris(1)
	for seed := uint64(1); seed <= 4; seed++ {
		st := time.Now()
		res, err := IBPGibbs(context.Background(), X, Options{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		tr := res.Trace
		t.Logf("seed %d %.2fs K=%d hist=%v alpha=%.3f sx=%.4f sa=%.4f acc=%.2f %.2f", seed, time.Since(st).Seconds(), res.K, res.KHistogram, res.Alpha, res.SigmaX, res.SigmaA, tr.AcceptX, tr.AcceptA)
		for s := 0; s < 1000; s += 100 {
			t.Logf("  t=%d K=%d a=%.3f sx=%.4f sa=%.4f lj=%.1f", s, tr.K[s], tr.Alpha[s], tr.SigmaX[s], tr.SigmaA[s], tr.LogJoint[s])
		}
	}
}

func TestIBPScratchTabletop(t *testing.T) {
	X := tabletopScores(t)
	st := time.Now()
	res, err := IBPGibbs(context.Background(), X, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Trace
	t.Logf("%.2fs K=%d hist=%v alpha=%.3f sx=%.4f sa=%.4f acc=%.2f %.2f", time.Since(st).Seconds(), res.K, res.KHistogram, res.Alpha, res.SigmaX, res.SigmaA, tr.AcceptX, tr.AcceptA)
	for s := 0; s < 1000; s += 100 {
		t.Logf("  t=%d K=%d a=%.3f sx=%.4f sa=%.4f lj=%.1f", s, tr.K[s], tr.Alpha[s], tr.SigmaX[s], tr.SigmaA[s], tr.LogJoint[s])
	}
}

func TestIBPScratchInspect(t *testing.T) {
	X, feats := scratchTetris(1)
	for _, seed := range []uint64{8} {
		res, _ := IBPGibbs(context.Background(), X, Options{Seed: seed})
		t.Logf("seed %d K=%d", seed, res.K)
		for f := 0; f < res.K; f++ {
			m := 0
			for i := 0; i < 100; i++ {
				m += int(res.Z.At(i, f))
			}
			a := res.A.RawRowView(f)
			s := ""
			for p := 0; p < 36; p++ {
				switch {
				case a[p] > 0.5:
					s += "#"
				case a[p] < -0.5:
					s += "-"
				default:
					s += "."
				}
				if p%6 == 5 {
					s += "|"
				}
			}
			best, bj := 1e9, -1
			for j, ft := range feats {
				var d float64
				for p := range ft {
					d += (ft[p] - a[p]) * (ft[p] - a[p])
				}
				if d < best {
					best, bj = d, j
				}
			}
			t.Logf("f%d m=%d %s closest %d ss %.3f", f, m, s, bj, best)
		}
	}
}

func TestIBPScratchInits(t *testing.T) {
	X, _ := scratchTetris(1)
	for _, o := range []Options{{Init: "prior"}, {Init: "single"}, {SigmaX0: 0.1, SigmaA0: 0.5}, {Init: "single", SigmaX0: 0.1, SigmaA0: 0.5}} {
		ks := ""
		for seed := uint64(1); seed <= 8; seed++ {
			o.Seed = seed
			res, _ := IBPGibbs(context.Background(), X, o)
			ks += " " + string(rune('0'+res.K))
		}
		t.Logf("%+v: %s", o, ks)
	}
}

func TestIBPScratchSlow(t *testing.T) {
	X, _ := scratchTetris(1)
	for _, st := range []float64{0.003, 0.01, 0.03} {
		for _, mh := range []int{1} {
			cfg := ibpDefaultConfig()
			cfg.mhSteps = mh
			cfg.step0 = st
			ks := ""
			var sx float64
			for seed := uint64(1); seed <= 8; seed++ {
				res, _ := ibpGibbs(context.Background(), X, Options{Seed: seed, Sweeps: 2000}, cfg)
				ks += " " + string(rune('0'+res.K))
				// find when sx < 0.11
				for s, v := range res.Trace.SigmaX {
					if v < 0.11 {
						sx += float64(s)
						break
					}
				}
			}
			t.Logf("step %v mh %d: %s  mean t(sx<.11)=%.0f", st, mh, ks, sx/8)
		}
	}
}

func TestIBPScratchTruthLJ(t *testing.T) {
	X, feats := scratchTetris(1)
	n, d := X.Dims()
	x := append([]float64(nil), X.RawMatrix().Data...)
	z := make([]float64, n*5)
	for i := 0; i < n; i++ {
		for j, f := range feats {
			// recover c_j by projection
			var dot float64
			for p := range f {
				dot += f[p] * x[i*d+p]
			}
			if dot > 2 {
				z[i*5+j] = 1
			}
		}
	}
	cfg := ibpDefaultConfig()
	c := newIBPChain(cfg, rand.New(rand.NewPCG(1, 2)), x, n, d, z, 5, 1.0, 0.1025, 0.37)
	t.Logf("truth: loglik %.1f logPZ %.1f lj %.1f", c.logLik, c.logPriorZ(), c.logJoint())
	res, _ := IBPGibbs(context.Background(), X, Options{Seed: 1})
	mz := res.MAPZ.RawMatrix()
	c2 := newIBPChain(cfg, rand.New(rand.NewPCG(1, 2)), x, n, d, append([]float64(nil), mz.Data...), mz.Cols, 1.0, 0.1025, 0.37)
	t.Logf("map K=%d: loglik %.1f logPZ %.1f lj %.1f", mz.Cols, c2.logLik, c2.logPriorZ(), c2.logJoint())
}

func TestIBPScratchMany(t *testing.T) {
	X, _ := scratchTetris(1)
	ks := ""
	for seed := uint64(1); seed <= 16; seed++ {
		res, _ := IBPGibbs(context.Background(), X, Options{Seed: seed})
		ks += " " + string(rune('0'+res.K))
	}
	t.Log(ks)
}

func TestIBPScratchManySingle(t *testing.T) {
	for _, ds := range []uint64{1, 2} {
		X, _ := scratchTetris(ds)
		for _, init := range []string{"single", "prior"} {
			ks := ""
			for seed := uint64(1); seed <= 16; seed++ {
				res, _ := IBPGibbs(context.Background(), X, Options{Seed: seed, Init: init})
				ks += " " + string(rune('0'+res.K))
			}
			t.Log(ds, init, ks)
		}
	}
}

func TestIBPScratchK1(t *testing.T) {
	X, _ := scratchTetris(2)
	res, _ := IBPGibbs(context.Background(), X, Options{Seed: 16, Init: "single"})
	tr := res.Trace
	for s := 0; s < 1000; s += 50 {
		t.Logf("  t=%d K=%d a=%.3f sx=%.4f sa=%.4f lj=%.1f", s, tr.K[s], tr.Alpha[s], tr.SigmaX[s], tr.SigmaA[s], tr.LogJoint[s])
	}
	t.Logf("acc %.2f %.2f", tr.AcceptX, tr.AcceptA)
}

func TestIBPScratchVariants(t *testing.T) {
	for _, v := range []struct{ block, col int }{{6, 3}, {8, 3}, {6, 10}, {1, 3}} {
		cfg := ibpDefaultConfig()
		cfg.block, cfg.colMoves = v.block, v.col
		cfg2 := *cfg
		bad := 0
		ks := ""
		for _, ds := range []uint64{1, 2, 3} {
			X, _ := scratchTetris(ds)
			for seed := uint64(1); seed <= 16; seed++ {
				res, _ := ibpGibbs(context.Background(), X, Options{Seed: seed}, &cfg2)
				ks += string(rune('0' + res.K))
				if res.K != 5 {
					bad++
				}
			}
			ks += " "
		}
		t.Log(v, bad, ks)
	}
}

func TestIBPScratchTrap(t *testing.T) {
	X, feats := scratchTetris(1)
	n, d := X.Dims()
	res, _ := IBPGibbs(context.Background(), X, Options{Seed: 8})
	truth := make([][]int, n)
	for i := 0; i < n; i++ {
		for _, f := range feats {
			var dot float64
			for p := range f {
				dot += f[p] * X.At(i, p)
			}
			b := 0
			if dot > 2 {
				b = 1
			}
			truth[i] = append(truth[i], b)
		}
	}
	_ = d
	for f := 0; f < res.K; f++ {
		cnt := map[[2]int]int{}
		for i := 0; i < n; i++ {
			if res.Z.At(i, f) == 1 {
				cnt[[2]int{truth[i][0], truth[i][2]}]++
			}
		}
		a := res.A.RawRowView(f)
		t.Logf("f%d A,C counts %v  value %.1f", f, cnt, a[:24])
	}
}
