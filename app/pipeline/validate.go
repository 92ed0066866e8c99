package pipeline

import (
	"fmt"
	"strings"

	"featurelab/algorithms"
	"featurelab/algorithms/cluster"
)

// ValidateRequest checks the parameters of an analysis before any work starts, so a bad
// value is reported by name instead of surfacing as NaN or a failure minutes later. The
// algorithm's own parameters are checked by its description in the registry.
func ValidateRequest(req Request) error {
	a := req.Algorithm
	if a == nil {
		return fmt.Errorf("no algorithm: one of %s", strings.Join(algorithms.Names(), ", "))
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
	if err := CheckDivergence(req.Options.Divergence, req.Describe.Kind); err != nil {
		return err
	}
	return a.Check(req.Options)
}

// CheckDivergence refuses a divergence of histograms (KL, the I-divergence) on the PCA
// scores, which are not the non-negative rows it needs: the learner would fail only
// after the images were loaded.
func CheckDivergence(divergence, features string) error {
	if (divergence == cluster.KL || divergence == cluster.IDiv) && (features == "" || features == FeaturesPCA) {
		return fmt.Errorf("--divergence %s needs non-negative rows, which PCA scores are not: add --features histogram (or --features words)", divergence)
	}
	return nil
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
