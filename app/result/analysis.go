package result

import (
	"context"
	"slices"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/app/jobs"
	"featurelab/app/pipeline"
	"featurelab/internal/cache"
)

// Analysis is a finished run: the prepared data and the algorithm's result.
type Analysis struct {
	*pipeline.Prepared
	Algorithm *algorithms.Algorithm
	Options   learn.Options
	Result    *learn.Result
	Times     pipeline.Timings    // the data's load and PCA times and this run's algorithm time
	Peak      pipeline.PeakMemory // the peak memory by the end of the load, the PCA and this run
	// AsFound is set when Result's Z and A are the learner's own, not the readable form.
	AsFound bool
	// pipeline.Description is what the learner read of each image (the PCA scores unless set).
	Description pipeline.Description
	// Other is the reading not shown — the learner's own Z and A while the readable form
	// is shown, and the other way round — or nil when the two are the same (SwitchReading).
	Other *pipeline.Reading
	// Stability is, per feature in column order, the share of fits on half-samples of
	// the images that hold it (selection.Stability); nil when not checked.
	Stability []float64
	// Seen is the scores as the learner fitted them when it chose K by counting objects:
	// the pictures seen through a slight blur. Separation reads the features' splits in
	// them, as the count did; nil when the learner fitted the scores themselves.
	Seen *mat.Dense
	// SeenShifts says that the count took each fit's own small shifts of its features'
	// pictures out of Seen (selection.Objects.ShiftNuisance): the fit shown is read so too (seenFor).
	SeenShifts bool
	// keptSeparation is, per feature of the reading keptZ, the separation a saved
	// analysis was written with (KeepSeparation).
	keptSeparation []float64
	keptZ          *mat.Dense
	// memo keeps what the readings work out, for the analyses derived from this one
	// (another K of its path, its other reading) to share; nil keeps nothing.
	memo *memo
}

// Of is the analysis of the run f on the prepared data p.
func Of(p *pipeline.Prepared, f *pipeline.Fitted) *Analysis {
	return &Analysis{Prepared: p, Algorithm: f.Algorithm, Options: f.Options, Result: f.Result, Times: f.Times,
		Peak: f.Peak, Description: f.Description, Other: f.Other, Stability: f.Stability, Seen: f.Seen,
		SeenShifts: f.SeenShifts, memo: &memo{}}
}

// memo is what the readings of an analysis work out once: by the matrices of the fit it
// is of, the blurred scores with the fit's own shifts taken out (seenFor) and the
// features read as adding or removing (Effects). The window reads a fit's separations
// and effects several times over.
type memo struct {
	seen    cache.Table[[2]*mat.Dense, *mat.Dense]
	effects cache.Table[[2]*mat.Dense, []string]
}

// seenTable is m's blurred scores by fit, nil (keeping nothing) for no memo.
func (m *memo) seenTable() *cache.Table[[2]*mat.Dense, *mat.Dense] {
	if m == nil {
		return nil
	}
	return &m.seen
}

// effectsTable is m's effects by fit, nil (keeping nothing) for no memo.
func (m *memo) effectsTable() *cache.Table[[2]*mat.Dense, []string] {
	if m == nil {
		return nil
	}
	return &m.effects
}

// KeepSeparation sets what Separation says of the reading shown, as a saved analysis
// was written with it: a reopened analysis has no Seen to read it in again.
func (a *Analysis) KeepSeparation(s []float64) {
	if a.Result != nil && len(s) == a.Result.K {
		a.keptSeparation, a.keptZ = slices.Clone(s), a.Result.Z
	}
}

// fitted is what the learner fitted, as the fit shown is read: seenFor its Z, or the
// scores.
func (a *Analysis) fitted() *mat.Dense {
	if a.Seen != nil {
		return a.seenFor(a.Result.Z)
	}
	return a.Scores
}

// seenFor is Seen as a fit with codes Z is read in: with that fit's shifts taken out when
// the count took them out (SeenShifts), as readableFit reads each fit it counts.
// It is worked out once per fit (memo).
func (a *Analysis) seenFor(Z *mat.Dense) *mat.Dense {
	if !a.SeenShifts || a.Seen == nil {
		return a.Seen
	}
	key := [2]*mat.Dense{a.Seen, Z}
	if seen, ok := a.memo.seenTable().Get(key); ok {
		return seen
	}
	seen := features.ProjectOut(a.Seen, a.Objects().ShiftNuisance(Z, nil))
	a.memo.seenTable().Put(key, seen)
	return seen
}

// Run runs one algorithm on the PCA scores of the prepared data p.
func Run(ctx context.Context, p *pipeline.Prepared, alg *algorithms.Algorithm, opt learn.Options, report func(jobs.Progress)) (*Analysis, error) {
	return RunOn(ctx, p, alg, pipeline.Description{}, opt, report)
}

// RunOn runs one algorithm on the representation desc of the prepared data p
// (pipeline.Prepared.RunOn).
func RunOn(ctx context.Context, p *pipeline.Prepared, alg *algorithms.Algorithm, desc pipeline.Description, opt learn.Options, report func(jobs.Progress)) (*Analysis, error) {
	f, err := p.RunOn(ctx, alg, desc, opt, report)
	if err != nil {
		return nil, err
	}
	return Of(p, f), nil
}

// Analyze runs the whole pipeline: load → PCA → algorithm. The load's and the PCA's
// reports give no time left: theirs alone would leave out the algorithm's, which nothing
// tells before it runs.
func Analyze(ctx context.Context, req pipeline.Request, report func(jobs.Progress)) (*Analysis, error) {
	prepReport := report
	if report != nil {
		prepReport = func(pr jobs.Progress) {
			pr.ETA = 0
			report(pr)
		}
	}
	p, err := pipeline.Prepare(ctx, req, prepReport)
	if err != nil {
		return nil, err
	}
	return RunOn(ctx, p, req.Algorithm, req.Describe, req.Options, report)
}
