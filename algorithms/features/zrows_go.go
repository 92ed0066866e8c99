//go:build !(cgo && amd64 && linux) || purego

package features

// zStepExactRows sets out[i] to zStepExact's code for every row i, with b_i column i of
// bt (k×n) and tol[i] its tolerance, one row at a time.
func zStepExactRows(bt, q, qg []float64, walk *grayWalk, cur []uint64, tol []float64, out []uint64) {
	n, k := len(cur), walk.k
	var b [maxExactK]float64
	var bb [2 * maxExactK]float64
	for i, c := range cur {
		for j := range k {
			b[j] = bt[j*n+i]
		}
		out[i], _ = zStepExact(b[:k], q, qg, walk, &bb, c, tol[i])
	}
}

// stepRows sets out[i] to step's code for every row i, with b_i column i of bt (k×n) and
// tol[i] its tolerance, one row at a time.
func (zb *zBlocks) stepRows(bt, g []float64, cur []uint64, tol []float64, out []uint64) {
	n, k := len(cur), zb.k
	var b [maxFeatures]float64
	for i, c := range cur {
		for j := range k {
			b[j] = bt[j*n+i]
		}
		out[i], _ = zb.step(b[:k], g, c, tol[i])
	}
}
