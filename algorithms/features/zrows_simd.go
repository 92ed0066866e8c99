//go:build cgo && amd64 && linux && !purego

package features

// #cgo CFLAGS: -O2 -std=c11
// #include <stdint.h>
// #include <string.h>
//
// typedef double fl_v8d __attribute__((vector_size(64)));
// typedef int64_t fl_v8i __attribute__((vector_size(64)));
//
// // fl_code_dot is Σ b[j*n] over the set bits j of z, lowest first: codeDot's sum.
// static double fl_code_dot(uint64_t z, const double *b, int n) {
// 	double s = 0;
// 	for (; z != 0; z &= z - 1) s += b[(long)__builtin_ctzll(z) * n];
// 	return s;
// }
//
// // fl_zstep_rows is zStepExact for every row of bt (k×n, column i row i's b), eight
// // rows a lane each: the same operations in the same order per row as the Go walk, so
// // the same codes. Lanes past n walk zeros and are not written.
// __attribute__((target_clones("avx512f", "avx2", "default")))
// static void fl_zstep_rows(int n, int k, const double *bt, const double *q, const double *qg,
// 		const uint8_t *flip, int ncodes, int resync, const uint64_t *cur, const double *tol,
// 		uint64_t *out) {
// 	for (int i0 = 0; i0 < n; i0 += 8) {
// 		int m = n - i0 < 8 ? n - i0 : 8;
// 		double bcol[16][8];
// 		memset(bcol, 0, sizeof bcol);
// 		fl_v8d best, bb[32], lin;
// 		fl_v8i besti;
// 		for (int r = 0; r < 8; r++) {
// 			besti[r] = -1;
// 			best[r] = 0;
// 			if (r >= m) continue;
// 			for (int j = 0; j < k; j++) bcol[j][r] = bt[(long)j * n + i0 + r];
// 			uint64_t c = cur[i0 + r];
// 			best[r] = (q[c] - 2 * fl_code_dot(c, &bt[i0 + r], n)) - tol[i0 + r];
// 		}
// 		for (int j = 0; j < k; j++) {
// 			fl_v8d v;
// 			memcpy(&v, bcol[j], sizeof v);
// 			bb[j] = 2 * v;
// 			bb[j + k] = -2 * v;
// 		}
// 		for (int start = 0; start < ncodes; start += resync) {
// 			int end = start + resync < ncodes ? start + resync : ncodes;
// 			// Resynchronise: 2zᵀb of the block's first code from its bits, as codeDot.
// 			uint64_t g = (uint64_t)(start ^ (start >> 1));
// 			fl_v8d s = {0, 0, 0, 0, 0, 0, 0, 0};
// 			for (uint64_t z = g; z != 0; z &= z - 1) {
// 				fl_v8d v;
// 				memcpy(&v, bcol[__builtin_ctzll(z)], sizeof v);
// 				s += v;
// 			}
// 			lin = 2 * s;
// 			fl_v8d v = qg[start] - lin;
// 			fl_v8i lt = v < best;
// 			best = (fl_v8d)(((fl_v8i)v & lt) | ((fl_v8i)best & ~lt));
// 			besti = ((fl_v8i){start, start, start, start, start, start, start, start} & lt) | (besti & ~lt);
// 			for (int i = start + 1; i < end; i++) {
// 				lin += bb[flip[i] & 31];
// 				v = qg[i] - lin;
// 				lt = v < best;
// 				best = (fl_v8d)(((fl_v8i)v & lt) | ((fl_v8i)best & ~lt));
// 				besti = ((fl_v8i){i, i, i, i, i, i, i, i} & lt) | (besti & ~lt);
// 			}
// 		}
// 		for (int r = 0; r < m; r++) {
// 			long bi = besti[r];
// 			out[i0 + r] = bi < 0 ? cur[i0 + r] : (uint64_t)(bi ^ (bi >> 1));
// 		}
// 	}
// }
//
// static void fl_zstep_exact_rows(int n, int k, const double *bt, const double *q, const double *qg,
// 		const uint8_t *flip, int ncodes, int resync, const uint64_t *cur, const double *tol,
// 		uint64_t *out) {
// 	fl_zstep_rows(n, k, bt, q, qg, flip, ncodes, resync, cur, tol, out);
// }
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
