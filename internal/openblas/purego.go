//go:build purego || windows || !cgo

package openblas

import "gonum.org/v1/gonum/blas/gonum"

// BLAS is gonum's pure-Go BLAS, in the builds that link no OpenBLAS (Windows, the
// purego tag, no cgo). Its large products spread over goroutines, but each block of
// the result is summed by one goroutine in a fixed order, so the result does not depend
// on their number, as with OpenBLAS on one thread.
var BLAS gonum.Implementation

// Core names the BLAS kernels this build runs on: gonum's pure-Go ones.
func Core() string { return "gonum (pure Go)" }

// Threads is OpenBLAS's thread setting, which gonum's BLAS has no use for: n is ignored
// and it reports 1, as a product's result is the same whatever runs it.
func Threads(n int) int { return 1 }
