package ibp

import (
	"context"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/internal/realdata"
	"featurelab/algorithms/learn"
)

// BenchmarkIBPMixing weighs each mixing move against its cost: the default run (4 chains
// × 1000 sweeps, one worker so that the time is the work) on the real tabletop and the
// tetris data with the block draws and the column moves each on and off. Beside the time
// it reports the best log joint reached (logjoint), the posterior mean K of the reported
// chain's second half (K), and the effective sample size per second of K and σ_X over the
// second halves of all chains (essK/s, essSX/s) — what a second of sampling buys — and
// the share of runs whose final and modal K are 5 (tetris's; K5-share). Run i has seed i.
func BenchmarkIBPMixing(b *testing.B) {
	tet, _, _ := tetris(1)
	for _, data := range []struct {
		name string
		X    func(testing.TB) *mat.Dense
	}{{"tabletop", realdata.Tabletop}, {"tetris", func(testing.TB) *mat.Dense { return tet }}} {
		for _, mode := range []struct {
			name        string
			block, cols int
		}{{"shipped", block, colMoves}, {"block3", 3, colMoves}, {"no-blocks", 1, colMoves},
			{"no-column-moves", block, 0}, {"neither", 1, 0}} {
			b.Run(data.name+"/"+mode.name, func(b *testing.B) {
				X := data.X(b)
				cfg := defaultConfig()
				cfg.block, cfg.colMoves = mode.block, mode.cols
				var lj, kMean, essK, essSX, secs, kMin float64
				runs := 0
				for b.Loop() {
					start := time.Now()
					seed := uint64(runs + 1)
					res, chains, err := gibbsChains(context.Background(), X, learn.Options{Seed: seed, Chains: 4, Workers: 1}, cfg)
					if err != nil {
						b.Fatal(err)
					}
					if res.K == modeK(res.KHistogram) && res.K == 5 {
						kMin++
					}
					secs += time.Since(start).Seconds()
					lj += res.MAPLogJoint
					for _, ch := range chains {
						half := len(ch.trace.K) / 2
						ks := make([]float64, len(ch.trace.K)-half)
						for t := range ks {
							ks[t] = float64(ch.trace.K[half+t])
						}
						essK += ess(ks)
						essSX += ess(ch.trace.SigmaX[half:])
					}
					for k, c := range res.KHistogram {
						kMean += float64(k*c) / float64(len(res.Trace.K)-len(res.Trace.K)/2)
					}
					runs++
				}
				r := float64(runs)
				b.ReportMetric(lj/r, "logjoint")
				b.ReportMetric(kMin/r, "K5-share")
				b.ReportMetric(kMean/r, "K")
				b.ReportMetric(essK/secs, "essK/s")
				b.ReportMetric(essSX/secs, "essSX/s")
			})
		}
	}
}

// gibbsChains runs gibbs and hands back every chain's result beside the reported one.
func gibbsChains(ctx context.Context, X *mat.Dense, opt learn.Options, cfg *config) (*learn.Result, []*chainResult, error) {
	var all []*chainResult
	cfg.keep = func(r *chainResult) { all = append(all, r) }
	res, err := gibbs(ctx, X, opt, cfg)
	return res, all, err
}

// ess is the effective sample size of the series s by Geyer's initial positive sequence:
// n / (1 + 2Σρ_t), summing the autocorrelations in pairs while a pair's sum is positive.
// A constant series (K that never moves) counts as one sample.
func ess(s []float64) float64 {
	n := len(s)
	var mean float64
	for _, v := range s {
		mean += v
	}
	mean /= float64(n)
	acov := func(lag int) float64 {
		var c float64
		for i := 0; i+lag < n; i++ {
			c += (s[i] - mean) * (s[i+lag] - mean)
		}
		return c / float64(n)
	}
	c0 := acov(0)
	if c0 <= 1e-300 {
		return 1
	}
	sum := 0.0
	for lag := 1; lag+1 < n; lag += 2 {
		pair := (acov(lag) + acov(lag+1)) / c0
		if pair <= 0 {
			break
		}
		sum += pair
	}
	return math.Min(float64(n), float64(n)/(1+2*sum))
}
