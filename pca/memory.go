package pca

import "runtime"

// Memory returns about how many bytes Fit32 allocates beyond its input to fit
// components of an n × p matrix: the scores and components, and the working matrices of
// the path it will take. It lets a caller refuse a folder before loading it rather than
// run out of memory in the middle.
func Memory(n, p, components int) int64 {
	// An eighth on top covers the vectors of length n and p (the mean, the signs) and
	// the decompositions' workspaces.
	est := memory(n, p, components)
	return est + est/8
}

// memory is Memory without the margin.
func memory(n, p, components int) int64 {
	N, P := int64(n), int64(p)
	if components <= 0 || n < 2 {
		return N * P * 8 // identity mode: the scores are a float64 copy of the data
	}
	d := min(components, n-1, p)
	D := int64(d)
	out := (N + P) * D * 8 // scores and components
	switch choosePath(n, p, d, pathAuto) {
	case pathGram:
		// G, its eigenvectors and the decomposition's workspace, n × n each; the packed
		// blocks of both passes: two on the first (one read, the next packed), one per
		// worker on the second.
		w := int64(runtime.GOMAXPROCS(0))
		rc := int64(min(n, packRows))
		return out + 3*N*N*8 + 2*N*int64(blockCols(n))*8 + w*(rc+D)*int64(blockCols(int(rc)))*8
	case pathSVD:
		// The centred copy, the SVD's own copy of it and its U (n × p each), and V (p × p)
		// with its copy.
		return out + 4*N*P*8 + 3*P*P*8
	}
	b, q := krylovShape(d, n, p)
	M := int64(b * (q + 1))
	l := int64(max(b, d))
	// The Krylov basis (n × m), Ycᵀ of it (p × m, float32), the operator's float32
	// operand and result, the test block, a float64 chunk of Ycᵀ of it, and the m × m
	// Gram matrix with its SVD (a copy, both factors and LAPACK's workspace).
	return out + N*M*8 + P*M*4 + 2*max(N, P)*l*4 + P*int64(b)*8 + int64(min(p, btChunkRows))*M*8 + 10*M*M*8
}
