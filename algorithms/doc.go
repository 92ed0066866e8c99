// Package algorithms holds the feature-allocation and clustering learners of Feature Lab:
// the MAD-Bayes small-variance limits of Broderick, Kulis & Jordan (2013) — K-features,
// stepwise K-features, BP-means and collapsed BP-means — the IBP Gibbs sampler, and the
// clustering baselines K-means, DP-means and exponential-family (Bregman) DP-means.
//
// Every learner reads an N×D data matrix X (one image per row, usually PCA scores) and
// returns a Result with a binary N×K allocation Z and K×D features A, so that ZA
// reconstructs X. Options carries the parameters, the seed, the number of workers and a
// progress callback; a context cancels long runs. Restarts run in parallel and the result
// depends only on the seed, never on the number of workers.
//
// The package never imports Fyne: the window and the command line both call Run.
package algorithms
