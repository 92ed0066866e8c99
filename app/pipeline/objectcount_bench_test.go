package pipeline

import (
	"context"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/internal/accuracy"
)

// BenchmarkObjectsRuleTabletop times the objects rule's reading of the λ² path of the
// default run on the real tabletop (selection.Objects.Count: each K's readable form, its separations and
// its count of objects), with what it keeps between runs forgotten each time, as a new
// run on another folder would find it.
func BenchmarkObjectsRuleTabletop(b *testing.B) {
	p, err := Prepare(context.Background(), Request{Source: Source{Dir: accuracy.SharedData(b, "tabletop")}, PCA: DefaultPCA}, nil)
	if err != nil {
		b.Fatal(err)
	}
	seen, err := p.Objects().Smoothed(nil)
	if err != nil {
		b.Fatal(err)
	}
	opt := learn.Options{Restarts: algorithms.DefaultRestarts, Seed: 1, KFrom: learn.KFromObjects}
	res, err := algorithms.MustLookup("stepwise").Run(context.Background(), seen, opt)
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Objects().RefitOnScores(res); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p.Objects().Forget()
		if k := p.Objects().Count(res, seen, false, 0, nil); k != 5 {
			b.Fatalf("K = %d, want 5", k)
		}
	}
}
