package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/describe"
)

// What a clustering learner can read of each image instead of its PCA scores
// (Request.Features): the exponential-family learners (DP-means with --divergence kl or
// idiv) need non-negative rows, histograms, which PCA scores are not.
const (
	FeaturesPCA       = "pca"       // the PCA scores, as every learner reads by default
	FeaturesHistogram = "histogram" // the image's normalised colour histogram
	FeaturesWords     = "words"     // a bag of visual words
)

// Validate checks the description before any image is loaded: a known kind, a clustering
// learner for any kind but the PCA scores, a vocabulary of at least one word.
func (d Description) Validate(alg *algorithms.Algorithm) error {
	switch {
	case d.Kind != "" && !slices.Contains(FeatureKinds(), d.Kind):
		return fmt.Errorf("features must be one of %s; got %q", strings.Join(FeatureKinds(), ", "), d.Kind)
	case d.Kind != "" && d.Kind != FeaturesPCA && !alg.Clusters():
		return fmt.Errorf("features %s work with the clustering learners (kmeans, dpmeans, collapsed-dpmeans, hardhdp), not %s", d.Kind, alg.Name)
	case d.Words < 0:
		return fmt.Errorf("words must be ≥ 1, got %d", d.Words)
	}
	return nil
}

// FeatureKinds lists the representations, the default first.
func FeatureKinds() []string { return []string{FeaturesPCA, FeaturesHistogram, FeaturesWords} }

// Describe returns the rows a learner reads for the representation kind, N × columns:
//   - FeaturesPCA: the PCA scores;
//   - FeaturesHistogram: each image's colour histogram (describe.Histograms);
//   - FeaturesWords: a bag of visual words learned on the folder itself, of words words
//     (0: describe.DefaultWords), by seed (describe.Words).
func (p *Prepared) Describe(ctx context.Context, kind string, words int, seed uint64, workers int) (*mat.Dense, error) {
	switch kind {
	case "", FeaturesPCA:
		return p.Scores, nil
	case FeaturesHistogram:
		return describe.Histograms(ctx, p.Data)
	case FeaturesWords:
		return describe.Words(ctx, p.Data, words, seed, workers)
	}
	return nil, fmt.Errorf("features must be one of pca, histogram, words; got %q", kind)
}
