package result

import (
	"featurelab/algorithms/partition"
)

// Comparison relates two results on the same data set: how alike the groupings of the
// images by binary code are, and which feature of one matches which of the other.
type Comparison struct {
	Left, Right *Analysis
	// RandIndex is the Rand index of the two partitions of the images by their codes:
	// 1 when two images share a code in one result exactly when they do in the other,
	// whatever the order of the features.
	RandIndex float64
	// Matches holds, for each feature column of Left, the column of Right whose owners
	// overlap it most.
	Matches []FeatureMatch
}

// FeatureMatch pairs a feature column of the left result with the right one whose set of
// owning images is closest, by the Jaccard index |A∩B| / |A∪B|.
type FeatureMatch struct {
	Left, Right int // column indices (Right is −1 when the right result has no feature)
	Jaccard     float64
}

// Compare compares two results; both must come from the same data set.
func Compare(left, right *Analysis) Comparison {
	c := Comparison{Left: left, Right: right}
	c.RandIndex = partition.RandIndex(partition.Number(left.Codes()), partition.Number(right.Codes()))
	rightOwners := ownerSets(right)
	for k, own := range ownerSets(left) {
		m := FeatureMatch{Left: k, Right: -1}
		for j, other := range rightOwners {
			if jac := jaccard(own, other); m.Right < 0 || jac > m.Jaccard {
				m.Right, m.Jaccard = j, jac
			}
		}
		c.Matches = append(c.Matches, m)
	}
	return c
}

// ownerSets gives, per feature column, which images own it.
func ownerSets(a *Analysis) [][]bool {
	n, k := a.Result.Z.Dims()
	sets := make([][]bool, a.Result.K)
	for f := range sets {
		sets[f] = make([]bool, n)
		for i := 0; i < n && f < k; i++ {
			sets[f][i] = a.Result.Z.At(i, f) != 0
		}
	}
	return sets
}

func jaccard(a, b []bool) float64 {
	var both, either int
	for i := range a {
		if a[i] && b[i] {
			both++
		}
		if a[i] || b[i] {
			either++
		}
	}
	if either == 0 {
		return 1
	}
	return float64(both) / float64(either)
}
