// Package chol holds the one Cholesky factorisation of the learners and the solves that
// go with it, on flat row-major slices with an explicit stride. K is small (2 to about 40)
// and changes from call to call in the learners' hot loops (the A-step of the MAD-Bayes
// learners, the IBP sampler's collapsed likelihood), so these kernels allocate nothing and
// avoid mat.Dense.
//
// The factorisation is the Cholesky–Banachiewicz form (row by row) with every sum taken
// in index order, so a factor is the same to the bit whoever calls it. gonum's
// lapack64.Potrf and blas64.Trsm are faster at the larger K (bench_test.go;
// docs/DESIGN.md, "Measurements behind the code"), but gonum rounds differently
// (TestGonumRoundsDifferently), which changes the learners' printed outputs, so the
// loops are hand-written. The solves' row
// operations go through gonum's vector kernels (floats.AddScaled, floats.Scale), which
// round every entry as the plain loops do (TestSolveBitsAsPlainLoops).
//
// It lives under algorithms/internal so that algorithms/features and algorithms/ibp share
// it without importing each other.
package chol
