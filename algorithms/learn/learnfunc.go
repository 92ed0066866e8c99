package learn

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// LearnFunc is a learner's entry point, the shape every family exports.
type LearnFunc func(ctx context.Context, X *mat.Dense, opt Options) (*Result, error)
