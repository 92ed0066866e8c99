// Package segment splits one image into regions with the kernel Pitman–Yor process
// mixture (KPYP) of Chatzis, Korkinof & Demiris, fitted by mean-field variational Bayes
// ("A Nonparametric Bayesian Approach Toward Image Segmentation", §3), and, for
// comparison, with K-means and DP-means on the same pixel features.
//
// Each pixel n is an observation y_n — its CIE L*a*b* colour, optionally with the mean
// and standard deviation of L* in a 5×5 window and its deviation in an 11×11 one; colour
// bilateral-smoothed, all dimensions centred and scaled by one factor (features.go) — at
// a location x_n = (row/H, col/W). The KPYP gives every location its own stick-breaking
// weights, whose Beta(k, α + c(1 − k)) priors are discounted by an RBF kernel
// k = exp(−dist(x, x̂_c)²/ψ²) centred on each cluster's location x̂_c, so pixels near x̂_c
// favour cluster c and pixels far from it can hardly use it: similar colours far apart
// may form different segments.
// Clusters are Gaussian with full covariance under a Normal–Wishart prior that is
// deliberately strong on the covariance (gausswishart.go says why); q(α) is
// Gamma. Segment runs the paper's updates (43)–(55) and records the variational bound
// after every iteration; it never decreases.
//
// Where this implementation goes beyond the paper, and why:
//
//   - The kernel's dist, which the paper leaves open, is by default geodesic
//     (geodesic.go): a path's length plus a cost for every colour edge it crosses, so a
//     cluster's kernel covers the region it sits in and not the far side of an edge.
//     The locations are then searched over the cells by the bound, and split moves
//     (split.go) part off the pieces of a cluster apart from the one it is located in
//     when that raises the bound, which scores a higher PRI on the BSDS500 train photos.
//   - The likelihood is raised to a power ζ (Options.Power, default 0.5): neighbouring
//     smoothed pixels are not independent observations, and at ζ = 1 a textured region
//     buys a second cluster of shades too cheaply.
//   - Locations are cells of Options.Cell² pixels (default 16×16) that share their centre,
//     so their sticks pool the responsibilities of their pixels — the sums over
//     m: x_m = x_n of eqs. (44)–(45). With one location per pixel each stick posterior
//     sees a single pixel and reinforces whatever that pixel was first assigned to.
//   - ⟨ln Γ(α + s + k) − ln Γ(α + s)⟩ under q(α) has no closed form; the bound uses its
//     tangent lower bound in ln α, which makes (47) ΣA instead of N(C−1) (equal when
//     k ≡ 1); see stickPrior. The paper's (47) as printed would let the bound fall.
//   - The fit runs on every Options.Stride-th pixel each way; every pixel of the image
//     is then labelled with SLIC superpixels (Achanta et al. 2012; superpixels.go) of
//     1.5 cells a side as its locations (labelAll, stride.go), q(θ) and q(α) held:
//     the borders between clusters of nearly one colour then follow the photo, not the
//     cells' edges, which scores better on the BSDS500 train photos, on the same fits.
//   - Merge moves join same-coloured neighbouring clusters when that raises the bound
//     (merge.go): the VB updates alone keep the over-segmentation of their start.
//   - The start is a seeded K-means with C compact clusters (initialise).
//   - The base measure is itself discrete (colours.go): located clusters may share one
//     colour model, so a split move can part a far piece of one colour into a
//     segment of its own without paying for a second Normal–Wishart.
//   - The last component of the truncation (v_C ≡ 1, no location) keeps q(θ_C) at the
//     prior, as the clusters beyond the truncation do in Kurihara, Welling & Vlassis
//     (2006): fitted, it became a catch-all cluster free of the spatial prior
//     (tailStats).
//
// Segment runs any of the three methods with one Options and returns one Result (a
// label map and traces); ColorImage, BoundaryImage and LabelImage draw it, and
// RandIndex, ProbabilisticRandIndex and VariationOfInformation score it against
// reference segmentations.
//
// The package is pure numerics: it never imports Fyne. Work is split over pixels on
// Options.Workers goroutines in fixed chunks whose partial sums are reduced in chunk
// order, so a seed gives the same labels whatever the number of workers. Memory is
// O(N·C): the responsibilities.
package segment
