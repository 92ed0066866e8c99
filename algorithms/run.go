package algorithms

import (
	"context"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/cluster"
	"featurelab/algorithms/features"
	"featurelab/algorithms/ibp"
	"featurelab/algorithms/learn"
)

// Learner is the shape every learner of the families shares: a data matrix and Options in,
// a Result out.
type Learner func(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error)

// learners maps an algorithm's name to its function. A name of Names missing here is
// known but not available yet.
var learners = map[string]Learner{
	"stepwise":  features.Stepwise,
	"kfeatures": features.KFeatures,
	"bpmeans":   features.BPMeans,
	"collapsed": features.CollapsedBPMeans,
	"ibp":       ibp.Gibbs,
	"kmeans":    cluster.KMeans,
	"dpmeans":   cluster.DPMeans,
	// Collapsed DP-means (MAD-Bayes Alg. 2) beside DP-means.
	"collapsed-dpmeans": cluster.CollapsedDPMeans,
	// The hard HDP (Jiang, Kulis & Jordan 2012, §4) of images grouped by subfolder.
	"hardhdp": cluster.HDP,
}

// names is the order the specification lists the algorithms in (SPEC §6, --algo).
var names = []string{"stepwise", "kfeatures", "bpmeans", "collapsed", "ibp", "kmeans", "dpmeans", "collapsed-dpmeans", "hardhdp"}

// Names returns the algorithm names Run knows, in the specification's order. The window's
// picker and the command line's --algo flag list them.
func Names() []string {
	return append([]string(nil), names...)
}

// Run runs the algorithm called algo on X: one of Names. It is how the window and the
// command line call every learner, so switching algorithm changes one word.
func Run(ctx context.Context, algo string, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	if fn, ok := learners[algo]; ok {
		return fn(ctx, X, opt)
	}
	for _, n := range names {
		if n == algo {
			return nil, fmt.Errorf("algorithm %q is not yet available", algo)
		}
	}
	return nil, fmt.Errorf("unknown algorithm %q: want one of %s", algo, strings.Join(names, ", "))
}
