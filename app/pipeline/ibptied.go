package pipeline

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/app/jobs"
)

// sampleTied runs the IBP sampler algo under the tied prior on α (learn.AlphaTied):
// α = exp(−λ²/2σ_X²), so that a feature costs the sampler what it costs BP-means at λ²
// (MAD-Bayes §3.1). The papers' Gamma prior lets K grow on photos without bound: there
// the noise is not white (small shifts, exposure, JPEG), σ_X shrinks as K grows, and
// each shrink makes the next small feature worth its price (on the ORL faces and the
// scene folders, K in the tens or hundreds for a few objects).
//
// With no λ² given, stepwise K-features chooses it as it chooses K for itself: from
// its λ² path, counting the objects on the pictures seen through a slight blur. The
// chains then sample those same pictures, starting from stepwise's fit: at that price
// the posterior is so peaked that chains started from the prior stay in the mode they
// first find, short of the objects. Where stepwise counted the objects with the images'
// small shifts taken out (shiftsMatter), so are they from what the chains see: else the
// chains trade a weak object (a shadow) for a card's jitter again. The result — its A and
// objectives — is given on the scores themselves (learn.Options.ReportOn); σ_X and the
// trace are those of the pictures the chains saw, which it returns with the result and
// the options asked.
func (p *Prepared) sampleTied(ctx context.Context, alg *algorithms.Algorithm, X *mat.Dense, desc Description,
	opt learn.Options, tr *jobs.Tracker) (*learn.Result, learn.Options, *mat.Dense, error) {
	// The options the run was asked for are what reproduces it; the λ² chosen is the
	// result's (learn.Result.Lambda2).
	asked := opt
	fitOn := X
	if opt.Lambda2 == 0 {
		pricer := alg.Pricer()
		sopt := learn.Options{Seed: opt.Seed, Workers: opt.Workers,
			Progress: func(ap learn.Progress) { tr.Algorithm(pricer, ap) }}
		tr.FollowSteps(0, alg.Title+", pricing a feature with ")
		sw, _, seen, shifts, err := p.fit(ctx, pricer, X, desc, sopt, tr)
		tr.EndSteps()
		if err != nil {
			return nil, opt, nil, err
		}
		if shifts {
			// The chains see the pictures without stepwise's fit's small shifts.
			seen = features.ProjectOut(seen, p.Objects().ShiftNuisance(sw.Z, nil))
		}
		opt.Lambda2 = sw.Lambda2
		if opt.Init == "" && opt.InitZ == nil {
			// Its fit as the window shows it — the base, and each object added to it —
			// so that the chains, which keep the form they start from, end in it too.
			p.Readable(pricer, sw)
			opt.InitZ = sw.Z
		}
		fitOn = seen
	}
	run := opt
	run.Progress = func(ap learn.Progress) { tr.Algorithm(alg, ap) }
	if fitOn != X {
		run.ReportOn = X
	}
	res, err := alg.Run(ctx, fitOn, run)
	return res, asked, fitOn, err
}
