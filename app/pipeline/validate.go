package pipeline

import (
	"fmt"

	"featurelab/algorithms"
	"featurelab/algorithms/cluster"
)

// ValidateRequest checks the parameters of an analysis before any work starts, so a bad
// value is reported by name instead of surfacing as NaN or a failure minutes later. The
// algorithm's own parameters are checked by its description in the registry.
func ValidateRequest(req Request) error {
	a, err := algorithms.Lookup(req.Algorithm)
	if err != nil {
		return err
	}
	if req.PCA < 0 {
		return fmt.Errorf("pca must be ≥ 0, got %d", req.PCA)
	}
	if _, err := ParseExposure(req.Exposure); err != nil {
		return err
	}
	if err := req.Describe.Validate(req.Algorithm); err != nil {
		return err
	}
	return a.Check(req.Options)
}

// ProposeLambda2 proposes λ² from the data by the farthest-first heuristic of Kulis &
// Jordan for a target number of features k (0 = algorithms.DefaultTargetK).
func (p *Prepared) ProposeLambda2(k int) float64 {
	if k <= 0 {
		k = algorithms.DefaultTargetK
	}
	n, _ := p.Scores.Dims()
	return cluster.FarthestFirstLambda2(p.Scores, min(k, n), cluster.Euclidean)
}
