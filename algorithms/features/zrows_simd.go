//go:build cgo && amd64 && linux && !purego

package features

// #cgo CFLAGS: -O2 -std=c11
// #include "zrows_simd.h"
import "C"

import "unsafe"

// zStepExactRows sets out[i] to zStepExact's code for every row i, with b_i column i of
// bt (k×n) and tol[i] its tolerance: eight rows at a time in vector lanes (AVX-512 or
// AVX2 where the CPU has them), the same operations per row as zStepExact, so the same
// codes bit for bit.
func zStepExactRows(bt, q, qg []float64, walk *grayWalk, cur []uint64, tol []float64, out []uint64) {
	n, k := len(cur), walk.k
	if n == 0 {
		return
	}
	_ = bt[k*n-1]
	_ = tol[n-1]
	_ = out[n-1]
	C.fl_zstep_exact_rows(C.int(n), C.int(k), (*C.double)(unsafe.Pointer(&bt[0])),
		(*C.double)(unsafe.Pointer(&q[0])), (*C.double)(unsafe.Pointer(&qg[0])),
		(*C.uint8_t)(unsafe.Pointer(&walk.flip[0])), C.int(len(walk.flip)), C.int(grayResync),
		(*C.uint64_t)(unsafe.Pointer(&cur[0])), (*C.double)(unsafe.Pointer(&tol[0])),
		(*C.uint64_t)(unsafe.Pointer(&out[0])))
}

// stepRows sets out[i] to step's code for every row i, with b_i column i of bt (k×n) and
// tol[i] its tolerance: eight rows at a time in vector lanes, each lane the operations of
// step in the same order, so the same codes bit for bit.
func (zb *zBlocks) stepRows(bt, g []float64, cur []uint64, tol []float64, out []uint64) {
	n, k := len(cur), zb.k
	if n == 0 {
		return
	}
	_ = bt[k*n-1]
	_ = g[k*k-1]
	_ = tol[n-1]
	_ = out[n-1]
	C.fl_zblocks_rows(C.int(n), C.int(k), (*C.double)(unsafe.Pointer(&bt[0])), (*C.double)(unsafe.Pointer(&g[0])),
		C.int(len(zb.size)), (*C.int)(unsafe.Pointer(&zb.size[0])), (*C.int)(unsafe.Pointer(&zb.bits[0])),
		(*C.double)(unsafe.Pointer(&zb.q[0])), (*C.double)(unsafe.Pointer(&zb.qg[0])),
		(*C.int)(unsafe.Pointer(&zb.off[0])), (*C.uint8_t)(unsafe.Pointer(&zb.flips[0])), C.int(grayResync),
		(*C.uint64_t)(unsafe.Pointer(&cur[0])), (*C.double)(unsafe.Pointer(&tol[0])),
		(*C.uint64_t)(unsafe.Pointer(&out[0])))
}
