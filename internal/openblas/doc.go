// Package openblas sets up OpenBLAS, the BLAS that the PCA's products and the
// K-features restarts' large products run on (gonum's netlib binding): its kernels the
// ones for this CPU, one thread. Importing it is what sets it up.
//
// Built for Windows, without cgo or with the purego tag, the package holds gonum's own
// pure-Go BLAS instead under the same names (purego.go): no C library to link or ship.
package openblas
