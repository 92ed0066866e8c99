package algorithms

import (
	"context"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// learner is the shape every algorithm of the package shares.
type learner func(ctx context.Context, X *mat.Dense, opt Options) (*Result, error)

// learners maps an algorithm's name to its function. A name of Names missing here is
// known but not available yet.
var learners = map[string]learner{
	"stepwise":  Stepwise,
	"kfeatures": KFeatures,
	"bpmeans":   BPMeans,
	"collapsed": CollapsedBPMeans,
	"ibp":       IBPGibbs,
	"kmeans":    KMeans,
	"dpmeans":   DPMeans,
}

// names is the order the specification lists the algorithms in (SPEC §6, --algo).
var names = []string{"stepwise", "kfeatures", "bpmeans", "collapsed", "ibp", "kmeans", "dpmeans"}

// Names returns the algorithm names Run knows, in the specification's order. The window's
// picker and the command line's --algo flag list them.
func Names() []string {
	return append([]string(nil), names...)
}

// Run runs the algorithm called algo on X: one of Names. It is how the window and the
// command line call every learner, so switching algorithm changes one word.
func Run(ctx context.Context, algo string, X *mat.Dense, opt Options) (*Result, error) {
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

// Codes returns each row of the binary allocation Z as a string of 0s and 1s, one
// character per feature, e.g. "10110": row n owns feature k when Z[n,k] ≠ 0. A nil Z
// gives nil.
func Codes(Z *mat.Dense) []string {
	if Z == nil || Z.IsEmpty() {
		return nil
	}
	n, k := Z.Dims()
	out := make([]string, n)
	buf := make([]byte, k)
	for i := 0; i < n; i++ {
		for j, v := range Z.RawRowView(i) {
			buf[j] = '0'
			if v != 0 {
				buf[j] = '1'
			}
		}
		out[i] = string(buf)
	}
	return out
}
