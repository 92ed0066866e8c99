package report

import (
	"fmt"
	"slices"

	"featurelab/app/result"
)

// A sampler's result, or any with many features, is shown largest feature first, and
// its small features are folded away: the IBP on the ORL faces ended with 156 features,
// most of them a few pixels of jitter or exposure, and its cards and grid buried the few
// that matter. A feature is minor when it explains less than MinorShare of the data's
// variation (result.Feature.Explained), or is not among the MajorFeatures largest.
const (
	MinorShare    = 0.01
	MajorFeatures = 12
)

// RankFeatures orders the features of a for display and says how many are minor: the
// base first, then, for a sampler's result or one of more than MajorFeatures features,
// the features by the share they explain, largest first (ties in column order), the
// minor ones last. Other results keep their column order and have no minor features;
// clusters are never ranked. feats is a.Features(); it is not changed.
func RankFeatures(a *result.Analysis, feats []result.Feature) (ranked []result.Feature, minor int) {
	ranked = slices.Clone(feats)
	var rest []result.Feature // the features other than the base
	for _, f := range feats {
		if !f.Base {
			rest = append(rest, f)
		}
	}
	if a.Algorithm.Clusters() || (!a.Algorithm.Sampler() && len(rest) <= MajorFeatures) {
		return ranked, 0
	}
	slices.SortStableFunc(rest, func(f, g result.Feature) int {
		switch {
		case f.Explained > g.Explained:
			return -1
		case f.Explained < g.Explained:
			return 1
		}
		return 0
	})
	for r, f := range rest {
		if r >= MajorFeatures || f.Explained < MinorShare {
			minor = len(rest) - r
			break
		}
	}
	copy(ranked[len(ranked)-len(rest):], rest) // the base, if any, is first (Features)
	return ranked, minor
}

// MinorText says how many minor features are folded away and why: "3 minor features
// (each under 1% explained, or past the 12 largest)"; "" for none.
func MinorText(minor int) string {
	switch minor {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("1 minor feature (under %.0f%% explained, or past the %d largest)", 100*MinorShare, MajorFeatures)
	}
	return fmt.Sprintf("%d minor features (each under %.0f%% explained, or past the %d largest)", minor, 100*MinorShare, MajorFeatures)
}
