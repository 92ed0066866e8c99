package learn

import (
	"context"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// LearnFunc is a learner's entry point, the shape every family exports.
type LearnFunc func(ctx context.Context, X *mat.Dense, opt Options) (*Result, error)

// starts holds the learners other learners may start from, by name.
var starts sync.Map // string → LearnFunc

// RegisterStart makes fn available under name to learners that start from another
// learner's result — the IBP sampler's Init "bpmeans" starts from BP-means — so the family
// holding fn registers it (in an init function) and the family using it needs to import
// only learn, not its sibling. Registering a name twice keeps the last.
func RegisterStart(name string, fn LearnFunc) { starts.Store(name, fn) }

// Start returns the learner registered under name, and false when none is: the package
// holding it is not linked into the program.
func Start(name string) (LearnFunc, bool) {
	fn, ok := starts.Load(name)
	if !ok {
		return nil, false
	}
	return fn.(LearnFunc), true
}
