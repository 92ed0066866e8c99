// Package features holds the MAD-Bayes feature-allocation learners of Broderick, Kulis &
// Jordan, "MAD-Bayes: MAP-based Asymptotic Derivations from Bayes" (ICML 2013): the small-variance limits of the
// beta process / Indian buffet process, which find a binary N×K allocation Z and K×D
// features A with X ≈ ZA.
//
//   - KFeatures (Alg. 4): K fixed, minimising ‖X − ZA‖²_F by alternating the Z-step
//     (zstep.go: each row's code exactly over all 2^K codes by Gray-code walk, or block by
//     block for large K, zblocks.go) and the A-step (astep.go: A = (Z'Z)⁻¹Z'X);
//   - Stepwise (§5): K-features for K = 1, 2, … until the BP-means objective
//     ‖X − ZA‖² + λ²K (Eq. 6) rises;
//   - BPMeans (Alg. 1) with BP-means++ seeding (plusplus.go), and CollapsedBPMeans
//     (Alg. 3), which penalise each feature by λ² and so choose K themselves;
//   - WithBase (canonical.go), which rewrites an allocation in the paper's readable form
//     (a base owned by every image, then features owned by at most half) without changing
//     the fit; the pipeline then turns each feature the way its picture reads.
//
// Every learner takes learn.Options and returns a learn.Result; restarts run in parallel
// and the result depends only on the seed.
package features
