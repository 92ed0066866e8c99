// Package ibp holds the collapsed Gibbs sampler of the linear-Gaussian infinite latent
// feature model: X = ZA + noise with Z drawn from the Indian buffet process, A integrated
// out (Griffiths & Ghahramani, "Infinite latent feature models and the Indian buffet
// process", 2005), in the form of Liu & Li's report ("A Note on the
// Gibbs Sampler for the IBP", Alg. 1), with α, σ_X and σ_A resampled.
//
// gibbs.go is the entry point, Gibbs, and its settings and chains; chain.go one chain's
// state (the Cholesky factor of Z'Z + (σ_X/σ_A)² I, kept up to date row by row) and its
// row updates; block.go the joint draws of blocks of shared features; moves.go the column
// moves that re-express features without changing the fit; hyper.go the hyperparameters
// and the log joint; linalg.go the small dense Cholesky routines. geweke_test.go checks
// the sampler against its prior with Geweke's joint-distribution test.
package ibp
