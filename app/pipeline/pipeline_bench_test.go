package pipeline_test

import (
	"context"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/report"
	"featurelab/app/result"
	"featurelab/internal/accuracy"
)

// BenchmarkLoadAndPCATabletop is the foundation's speed target: load the 100 real tabletop
// photos and project them to 100 principal components (≤ 1.5 s on 2 cores).
func BenchmarkLoadAndPCATabletop(b *testing.B) {
	dir := accuracy.SharedData(b, "tabletop")
	req := pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: 100}
	for b.Loop() {
		p, err := pipeline.Prepare(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		if n, d := p.Scores.Dims(); n != 100 || d != 99 {
			b.Fatalf("scores %d×%d", n, d)
		}
	}
}

// BenchmarkPresentTabletop turns a stepwise result on the built-in tabletop sample into
// what the window shows (feature images, reconstructions, codes): the wait between a run
// ending and its result on screen.
func BenchmarkPresentTabletop(b *testing.B) {
	p, err := pipeline.Prepare(context.Background(), pipeline.Request{Source: pipeline.Source{Sample: "tabletop"}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		b.Fatal(err)
	}
	p.Thumbnails() // both made by the window's load, before the first run
	p.ThumbnailPCA()
	a, err := result.RunOn(context.Background(), p, algorithms.MustLookup("stepwise"), pipeline.Description{}, learn.Options{K: algorithms.DefaultTargetK, Restarts: algorithms.DefaultRestarts, Seed: 1}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if pres := report.Present(a); len(pres.Recon) != len(p.Data.Names) {
			b.Fatalf("%d reconstructions", len(pres.Recon))
		}
	}
}

// BenchmarkIBPRealTabletop times the IBP's default run on the 100 real tabletop photos
// (4 chains × 1 000 sweeps) under each prior on α, and stepwise K-features alone: under
// the tied prior (the default) the run is stepwise's, which prices a feature and
// starts the chains, plus the sampler's, so the sampler's own time is the difference.
func BenchmarkIBPRealTabletop(b *testing.B) {
	dir := accuracy.SharedData(b, "tabletop")
	p, err := pipeline.Prepare(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, PCA: pipeline.DefaultPCA}, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, run := range []struct {
		name, algo string
		opt        learn.Options
	}{
		{"stepwise", "stepwise", learn.Options{Restarts: algorithms.DefaultRestarts, Seed: 1}},
		{"ibp tied", "ibp", learn.Options{Chains: algorithms.DefaultChains, Seed: 1, AlphaPrior: learn.AlphaTied}},
		{"ibp gamma", "ibp", learn.Options{Chains: algorithms.DefaultChains, Seed: 1, AlphaPrior: learn.AlphaGamma}},
	} {
		b.Run(run.name, func(b *testing.B) {
			k := 0
			for b.Loop() {
				a, err := result.RunOn(context.Background(), p, algorithms.MustLookup(run.algo), pipeline.Description{}, run.opt, nil)
				if err != nil {
					b.Fatal(err)
				}
				k = a.Result.K
			}
			b.ReportMetric(float64(k), "K")
		})
	}
}
