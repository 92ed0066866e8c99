package features

import (
	"context"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// nuisanceRounds is how many times a K's fit has its nuisance directions worked out
// again from its own features and is refitted from where it stands.
const nuisanceRounds = 1

// nuisanceRestarts is the restarts of each such refit: its own codes, plus a few drawn.
const nuisanceRestarts = 4

// ProjectOut returns X with its components along the span of B's rows removed (X itself
// when B is nil or spans nothing). A row of B that adds nothing to the span of the rows
// before it is skipped.
func ProjectOut(X, B *mat.Dense) *mat.Dense {
	if B == nil {
		return X
	}
	m, d := B.Dims()
	var q [][]float64 // an orthonormal basis of B's span (Gram–Schmidt, twice)
	for i := 0; i < m; i++ {
		if v, ok := orthoRest(B.RawRowView(i), q); ok {
			q = append(q, v)
		}
	}
	if len(q) == 0 {
		return X
	}
	n, _ := X.Dims()
	out := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		row := out.RawRowView(i)
		copy(row, X.RawRowView(i))
		for _, u := range q {
			floats.AddScaled(row, -floats.Dot(u, row), u)
		}
	}
	return out
}

// orthoRest is b's unit part orthogonal to the orthonormal rows q, and false when b
// adds nothing to their span.
func orthoRest(b []float64, q [][]float64) ([]float64, bool) {
	v := append([]float64(nil), b...)
	n0 := floats.Norm(v, 2)
	if n0 == 0 {
		return nil, false
	}
	for pass := 0; pass < 2; pass++ {
		for _, u := range q {
			floats.AddScaled(v, -floats.Dot(u, v), u)
		}
	}
	nv := floats.Norm(v, 2)
	if nv <= 1e-6*n0 {
		return nil, false
	}
	floats.Scale(1/nv, v)
	return v, true
}

// nuisanceProblem is the problem of X with fit's nuisance directions (opt.Nuisance of
// its Z and its least-squares A on X) projected out; p itself without a fit.
func (r *stepwiseRun) nuisanceProblem(fit *kfFit) *kfProblem {
	if fit == nil || r.opt.Nuisance == nil {
		return r.p
	}
	res, err := r.p.result(fit)
	if err != nil {
		return r.p
	}
	B := r.opt.Nuisance(res.Z, res.A)
	if B == nil {
		return r.p
	}
	return newKFProblem(ProjectOut(r.p.orig, B))
}

// fitKNuisance is fitK with the nuisance of the K before's fit projected out, then, for
// nuisanceRounds, of the new fit's own: it returns the fit and the problem it is a fit
// of.
func (r *stepwiseRun) fitKNuisance(ctx context.Context, k int) (*kfFit, *kfProblem, error) {
	if r.opt.Progress != nil {
		r.opt.Progress(learn.Progress{Stage: "K", Done: k - 1, Total: r.maxK, K: k})
	}
	p := r.nuisanceProblem(r.last)
	var starts []kfStart
	if r.last != nil && r.last.k < k {
		starts = []kfStart{{k: r.last.k, z: r.last.z}}
	}
	fit, err := p.best(ctx, k, r.cfg, stepwiseSeed(r.opt.Seed, k), starts, restartProgress(r.opt.Progress, k))
	if err != nil {
		return nil, nil, err
	}
	for round := 0; round < nuisanceRounds && r.opt.Nuisance != nil; round++ {
		q := r.nuisanceProblem(fit)
		if q == r.p {
			break
		}
		cfg := r.cfg
		cfg.Restarts = nuisanceRestarts
		f2, err := q.best(ctx, fit.k, cfg, stepwiseSeed(r.opt.Seed, 1000+k), []kfStart{{k: fit.k, z: fit.z}}, nil)
		if err != nil {
			return nil, nil, err
		}
		fit, p = f2, q
	}
	r.last = fit
	return fit, p, nil
}

// shrinkNuisance is shrink where every K has its own problem.
func (r *stepwiseRun) shrinkNuisance(ctx context.Context, fits map[int]*kfFit, probs map[int]*kfProblem) error {
	top := 0
	for k := range fits {
		top = max(top, k)
	}
	for k := top - 1; k >= 1; k-- {
		r.reportShrink(k, top)
		above, ok := fits[k+1]
		p, okp := probs[k]
		if !ok || !okp {
			continue
		}
		cfg := r.cfg
		cfg.Restarts = k + 1
		fit, err := p.best(ctx, k, cfg, stepwiseSeed(r.opt.Seed, k), shrinkStarts(above), nil)
		if err != nil {
			return err
		}
		if cur, ok := fits[fit.k]; fit.k == k && (!ok || fit.obj < cur.obj) {
			fits[fit.k] = fit
		}
	}
	return nil
}
