package app

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"featurelab/algorithms"
	"featurelab/algorithms/cluster"
	"featurelab/algorithms/learn"
)

// ValidateRequest checks the parameters of an analysis before any work starts, so a bad
// value is reported by name instead of surfacing as NaN or a failure minutes later.
func ValidateRequest(req Request) error {
	if !slices.Contains(algorithms.Names(), req.Algorithm) {
		return fmt.Errorf("algo must be one of %s, got %q", strings.Join(algorithms.Names(), ", "), req.Algorithm)
	}
	if req.PCA < 0 {
		return fmt.Errorf("pca must be ≥ 0, got %d", req.PCA)
	}
	if err := req.Describe.validate(req.Algorithm); err != nil {
		return err
	}
	return ValidateOptions(req.Algorithm, req.Options)
}

// ValidateOptions checks one algorithm's options; the window calls it per field too.
func ValidateOptions(algo string, o learn.Options) error {
	switch {
	case o.K < 0:
		return fmt.Errorf("k must be ≥ 0, got %d", o.K)
	case o.K > 64 && (algo == "kfeatures" || algo == "kmeans"):
		return fmt.Errorf("k must be ≤ 64, got %d", o.K)
	case math.IsNaN(o.Lambda2) || math.IsInf(o.Lambda2, 0) || o.Lambda2 < 0:
		return fmt.Errorf("lambda2 must be a number ≥ 0, got %v", o.Lambda2)
	case o.Restarts < 1:
		return fmt.Errorf("restarts must be ≥ 1, got %d", o.Restarts)
	case o.Sweeps < 1 && algo == "ibp":
		return fmt.Errorf("sweeps must be ≥ 1, got %d", o.Sweeps)
	case o.Workers < 0:
		return fmt.Errorf("workers must be ≥ 0, got %d", o.Workers)
	}
	if HasDivergence(algo) && o.Divergence != "" && !slices.Contains([]string{"euclidean", "kl", "idiv"}, o.Divergence) {
		return fmt.Errorf("divergence must be euclidean, kl or idiv, got %q", o.Divergence)
	}
	return nil
}

// NeedsLambda2 reports whether an algorithm pays λ² per feature and so needs a value.
func NeedsLambda2(algo string) bool {
	switch algo {
	case "stepwise", "bpmeans", "collapsed", "dpmeans", "collapsed-dpmeans", "hardhdp":
		return true
	}
	return false
}

// PathLambda2 reports whether an algorithm, given no λ², chooses λ² and K itself from
// its λ² path (features.Stepwise, BPMeans, CollapsedBPMeans) instead of taking the
// farthest-first proposal.
func PathLambda2(algo string) bool {
	switch algo {
	case "stepwise", "bpmeans", "collapsed":
		return true
	}
	return false
}

// IsClusteringAlgorithm reports whether an algorithm gives each image one cluster
// (K-means, DP-means, collapsed DP-means, the hard HDP's global clusters) rather than a
// set of features.
func IsClusteringAlgorithm(algo string) bool {
	switch algo {
	case "kmeans", "dpmeans", "collapsed-dpmeans", "hardhdp":
		return true
	}
	return false
}

// HasDivergence reports whether an algorithm takes a Bregman divergence other than the
// squared distance (DP-means and the hard HDP).
func HasDivergence(algo string) bool { return algo == "dpmeans" || algo == "hardhdp" }

// NeedsTargetK reports whether an algorithm's K field is a target from which λ² is
// proposed (DP-means, collapsed DP-means, the hard HDP) rather than the K it fits.
func NeedsTargetK(algo string) bool {
	return algo == "dpmeans" || algo == "collapsed-dpmeans" || algo == "hardhdp"
}

// DefaultIBPChains is the number of Gibbs chains the IBP sampler runs unless the user
// says otherwise (the window's field, the command line's --restarts). A single chain can
// stay in a redundant mode — on the built-in tetris sample 2 of 30 seeds end at K = 7 or
// 8 — while the best of 4 reached K = 5 for all 30.
const DefaultIBPChains = 4

// DefaultTargetK is the number of features the farthest-first heuristic aims at when the
// user gives neither λ² nor K (SPEC §5).
const DefaultTargetK = cluster.DefaultTargetK

// ProposeLambda2 proposes λ² from the data by the farthest-first heuristic of Kulis &
// Jordan for a target number of features k (0 = DefaultTargetK).
func (p *Prepared) ProposeLambda2(k int) float64 {
	if k <= 0 {
		k = DefaultTargetK
	}
	n, _ := p.Scores.Dims()
	return cluster.FarthestFirstLambda2(p.Scores, min(k, n), "euclidean")
}
