// Package pca reduces a data matrix of images to principal-component scores and maps
// scores back to pixels.
//
// It follows the scaling of the MAD-Bayes reference code (tbroderick/bp-means,
// run_high_dim_pca.m), so that feature-allocation objectives computed on the scores are
// comparable with the published ones: the N × P data matrix Y is divided by sqrt(N−1),
// the column mean m of the scaled matrix is subtracted, and the scores are X = (Y − m)V
// for the P × D matrix V of the top D principal directions. A score row s maps back to
// pixels as (sVᵀ + m)·sqrt(N−1). The squared singular values of the centred, scaled
// matrix are then the sample variances along the components, and their total is the sum
// of the per-pixel sample variances of Y.
//
// Fit picks the factorisation from the shape of Y and never forms a P × P matrix:
//
//   - N ≤ P (a few hundred images of many pixels): the N × N Gram matrix of the centred
//     data, accumulated over cache-sized column blocks on several goroutines, and its
//     symmetric eigen-decomposition; V = Ycᵀ U Σ⁻¹.
//   - P < N: a thin SVD of the N × P centred matrix.
//   - N and P both well above D (from about 4(D+10), thousands of images): randomized
//     block Krylov iteration (Musco & Musco, "Randomized Block Krylov Methods for
//     Stronger and Faster Approximate Singular Value Decomposition", NeurIPS 2015;
//     Halko, Martinsson & Tropp 2011 for the randomized range finder it refines),
//     seeded and deterministic, with every pass over the data one product on OpenBLAS
//     in the data's own precision.
//
// Fit32 takes the data as float32, the compact rows a folder is loaded into; Fit takes
// a gonum matrix.
//
// Every component's sign is fixed (its largest-magnitude entry is positive), so results
// do not depend on the path, the number of workers or the LAPACK implementation's
// sign conventions.
//
// Components = 0 is the reference's no-PCA mode: the scores are the data as they are and
// the Model's maps are the identity, so callers need no special case.
package pca
