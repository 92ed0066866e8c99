// Package learn holds what every learner of Feature Lab shares, so the families
// (algorithms/features, algorithms/ibp, algorithms/cluster) speak one language without
// importing each other: Options in, Result out (one shape for all, as scikit-learn's
// estimators have), Progress reports, and the restart machinery — BestOfRestarts runs
// restarts on a pool of workers with a generator per restart, RestartRNG, that depends only
// on (seed, restart), so a result never depends on the number of workers.
//
// Check is the one place the input is checked: a data matrix that is empty or holds NaN or
// ±Inf, negative counts, a λ² that is negative or not finite. ResidualSS recomputes the
// K-features objective ‖X − ZA‖²_F of Broderick, Kulis & Jordan (2013) from Z and A,
// the invariant every learner's Objective is tested against.
//
// What two families would otherwise each write lives here too: SqDist and the
// farthest-first traversal behind every λ² proposal (FarthestFirst), and DefaultTargetK.
// A learner that starts from another's result (the IBP sampler from BP-means) is handed
// it in Options.StartFrom, so the families need not import each other.
//
// The package imports only gonum: it is the leaf the learners stand on.
package learn
