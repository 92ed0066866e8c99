package pipeline

import (
	"featurelab/algorithms"
	"featurelab/algorithms/learn"
)

// countsObjectsFor reports whether a run of algo with opt chooses its K by counting
// objects (Options.KFrom): a learner that walks a λ² path, with no λ² given, on PCA
// scores with pictures behind them.
func (p *Prepared) countsObjectsFor(alg *algorithms.Algorithm, desc Description, opt learn.Options) bool {
	return alg.ChoosesK(opt) && opt.KFrom != learn.KFromWidest &&
		(desc.Kind == "" || desc.Kind == FeaturesPCA) && p.PCA != nil && !p.PCA.Identity && p.Data != nil
}
