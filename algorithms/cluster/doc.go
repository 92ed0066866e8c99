// Package cluster holds the hard-clustering learners Feature Lab runs as baselines and on
// histograms: K-means with k-means++ seeding; DP-means, the small-variance limit of the
// Dirichlet-process mixture (Kulis & Jordan, "Revisiting k-means: New Algorithms via
// Bayesian Nonparametrics", ICML 2012), which opens a cluster whenever a point lies more
// than λ² from every centre; and its exponential-family form for any Bregman divergence —
// squared Euclidean, KL on histograms, generalised I-divergence (Jiang, Kulis & Jordan,
// NIPS 2012, §3.2).
// CollapsedDPMeans is MAD-Bayes Alg. 2 (Broderick, Kulis & Jordan, ICML 2013,
// eqs. 8–9): DP-means with the means
// integrated out, each row's move updating its clusters' means at once.
// HardHDP is the hard hierarchical Dirichlet process of the same exponential-family
// paper (§4, eq. 4; for squared Euclidean distance Kulis & Jordan's Alg. 2): rows in
// groups, each group's local clusters tied to global means all groups share, for any of
// the Bregman divergences.
// FarthestFirstLambda2 proposes λ² from the data for a target number of clusters.
// Lloyd (k-means++ and Lloyd's steps, on several goroutines) and DPMeansRows (one DP-means
// run) are the kernels of KMeans and DPMeans on flat rows, which the segmenter runs on
// the pixels of a photo, so both share one copy of each.
//
// A clustering is returned as a learn.Result whose Z is one-hot and whose A holds the
// centres, so it reads like a feature allocation with one feature per image.
package cluster
