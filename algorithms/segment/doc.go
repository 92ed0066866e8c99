// Package segment splits one image into regions with the kernel Pitman–Yor process
// mixture (KPYP) of Chatzis, Korkinof & Demiris, fitted by mean-field variational Bayes
// (papers/kernel-pitman-yor-process-chatzis-korkinof-demiris.txt, §3), and, for
// comparison, with K-means and DP-means on the same pixel features.
//
// Each pixel n is an observation y_n — its CIE L*a*b* colour, optionally with the mean
// and standard deviation of L* in a 5×5 window, every dimension standardised — at a
// location x_n = (row/H, col/W). The KPYP gives every pixel its own stick-breaking
// weights whose Beta priors are discounted by an RBF kernel centred on each cluster's
// location x̂_c, so pixels near x̂_c favour cluster c and pixels far from it cannot use
// it: similar colours far apart may form different segments. Cluster parameters are
// Gaussian with full covariance under a Normal–Wishart prior.
//
// Segment runs any of the three methods with one Options and returns one Result (a
// label map and traces); ColorImage, BoundaryImage and LabelImage draw it, and
// RandIndex, ProbabilisticRandIndex and VariationOfInformation score it against
// reference segmentations.
//
// The package is pure numerics: it never imports Fyne. Work is split over pixels on
// Options.Workers goroutines in fixed chunks whose partial sums are reduced in chunk
// order, so a seed gives the same labels whatever the number of workers.
package segment
