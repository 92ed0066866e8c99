package pipeline

import (
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"

	"featurelab/algorithms/features"
)

// shiftsMatter reports whether a λ² path (res, fitted on seen and refitted on the
// scores, k objects counted on it, 0 for none) is worth fitting again with the images'
// small shifts of the features' pictures modelled as a nuisance (shiftNuisance), to
// count the objects on both: when the path goes on by two K or more past the objects
// (a nuisance is taking features), and its widest K does not change mostly by degrees
// (faces: mostlyGradual), where there are no objects to count. On the generated scene
// folders the shifts are what hides a weak object — a card's ±1 px jitter outweighs a
// shadow on dark water, so the shadow gets no feature at any K — and the fit with
// shifts modelled finds it. Elsewhere modelling shifts does harm, and the plain path's
// larger count stands: tetris's 6 × 6 pictures make a pixel's shift another picture,
// and the cards' pips a few pixels apart make one pip's derivative much of its
// neighbour; both lose features to the shifts.
func (p *Prepared) shiftsMatter(res *learn.Result, seen *mat.Dense, k int) bool {
	last := 0
	for _, f := range res.PathFits {
		last = max(last, f.K)
	}
	if k == 0 {
		k = res.K
	}
	if last-k < 2 {
		return false
	}
	for _, f := range res.PathFits {
		if f.K != res.K {
			continue
		}
		r := p.readableFit(f.Z, f.A, seen, false)
		return r != nil && !mostlyGradual(r)
	}
	return false
}

// shiftMaps are the maps from an image's scores to the smoothed scores of its picture's
// x- and y-derivatives (pca.Model.ShiftMaps followed by the blur metric), worked out once.
func (p *Prepared) shiftMaps() (tx, ty *mat.Dense, err error) {
	if _, err := p.smoothedScores(nil); err != nil {
		return nil, nil, err
	}
	p.shiftOnce.Do(func() {
		ds := p.Data
		x, y, err := p.PCA.ShiftMaps(ds.Width, ds.Height, ds.Channels)
		if err != nil {
			p.shiftErr = err
			return
		}
		p.shiftTx, p.shiftTy = new(mat.Dense), new(mat.Dense)
		p.shiftTx.Mul(x, p.blurR)
		p.shiftTy.Mul(y, p.blurR)
	})
	return p.shiftTx, p.shiftTy, p.shiftErr
}

// shiftNuisance is learn.Options.Nuisance for a fit on the smoothed scores: the
// smoothed scores of the x- and y-derivatives of each feature's picture, whose A is
// refitted on the scores with the fit's Z. A small shift of a feature's picture in an
// image is, to first order, a combination of these two rows.
func (p *Prepared) shiftNuisance(Z, _ *mat.Dense) *mat.Dense {
	tx, ty, err := p.shiftMaps()
	if err != nil {
		return nil
	}
	A, ok := features.LeastSquaresA(Z, p.Scores)
	if !ok {
		return nil
	}
	k, d := A.Dims()
	maps := []*mat.Dense{tx, ty}
	out := mat.NewDense(len(maps)*k, d, nil)
	for m, t := range maps {
		var b mat.Dense
		b.Mul(A, t)
		for j := 0; j < k; j++ {
			copy(out.RawRowView(len(maps)*j+m), b.RawRowView(j))
		}
	}
	return out
}
