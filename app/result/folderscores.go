package result

import (
	"fmt"

	"featurelab/algorithms/partition"
	"featurelab/app/pipeline"
)

// FolderScores is how a clustering agrees with the subfolders its images came in — the
// known groups of a folder sorted by hand, or ORL's one subfolder per person.
type FolderScores struct {
	NMI, ARI float64 // partition.NMI and partition.AdjustedRandIndex, clusters against folders
	Folders  int     // how many subfolders hold the images
}

// FolderScores scores a clustering's images against their subfolders. It reports false
// when there is nothing to score: a feature learner's result (an image may own several
// features), images that are not all in subfolders of at least two kinds, or the hard
// HDP's, whose groups are those subfolders: told the answer's groups, it scores near
// perfectly, a measure of nothing.
func (a *Analysis) FolderScores() (FolderScores, bool) {
	if !a.IsClustering() || a.Data == nil || a.Algorithm.ReadsGroups() {
		return FolderScores{}, false
	}
	truth, k := pipeline.Subfolders(a.Data.Names)
	if k < 2 {
		return FolderScores{}, false
	}
	clusters := partition.Number(a.Codes())
	return FolderScores{NMI: partition.NMI(clusters, truth), ARI: partition.AdjustedRandIndex(clusters, truth), Folders: k}, true
}

// String is the scores as the window shows them: "NMI 0.71, ARI 0.42 against 40 subfolders".
func (s FolderScores) String() string {
	return fmt.Sprintf("NMI %.3f, ARI %.3f against %d subfolders", s.NMI, s.ARI, s.Folders)
}
