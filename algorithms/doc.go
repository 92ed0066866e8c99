// Package algorithms is the one door to Feature Lab's learners: Run takes an algorithm's
// name (one of Names), an N×D data matrix X — one image per row, usually PCA scores — and
// learn.Options, and returns a learn.Result, so the window and the command line switch
// learner by changing one word, as scikit-learn's estimators do.
//
// The learners live in one package per family, each citing its paper:
//
//   - features: the MAD-Bayes feature-allocation learners of Broderick, Kulis & Jordan
//     (2013) — K-features, stepwise K-features, BP-means (with BP-means++ seeding) and
//     collapsed BP-means — with their Z-step and A-step;
//   - ibp: the collapsed Gibbs sampler of the Indian buffet process (Griffiths &
//     Ghahramani 2005, as Liu & Li describe it);
//   - cluster: K-means, DP-means and exponential-family (Bregman) DP-means (Kulis &
//     Jordan 2012; Jiang, Kulis & Jordan 2012) and the farthest-first λ² proposal;
//   - segment: the kernel Pitman–Yor segmenter of single images (its own Options).
//
// What they all share — Options, Result, Progress, the restarts with their seeding, the
// checks of the input — is the leaf package learn, which imports none of them; this
// package sits one floor up and imports them all. Nothing here imports Fyne.
package algorithms
