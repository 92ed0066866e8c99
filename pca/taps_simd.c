//go:build cgo && amd64 && linux && !purego

// The blur's taps in vector lanes (taps_simd.go says what they do).

#include "taps_simd.h"
#include <string.h>

typedef double fl_v8d __attribute__((vector_size(64)));

// fl_taps sets dst[j] = 0 + k[0]·base[off[0]+j] + k[1]·base[off[1]+j] + … for j < n, the
// terms added in tap order, each product rounded before its sum (no contraction under
// -std=c11): the sums a clear followed by one floats.AddScaled a tap makes, in one pass.
__attribute__((target_clones("avx512f", "avx2", "default")))
static void fl_taps_impl(double *dst, const double *base, const int64_t *off, const double *k, int taps, long n) {
	long j = 0;
	for (; j + 8 <= n; j += 8) {
		fl_v8d acc = {0, 0, 0, 0, 0, 0, 0, 0};
		for (int t = 0; t < taps; t++) {
			fl_v8d v;
			memcpy(&v, base + off[t] + j, sizeof v);
			acc += k[t] * v;
		}
		memcpy(dst + j, &acc, sizeof acc);
	}
	for (; j < n; j++) {
		double acc = 0;
		for (int t = 0; t < taps; t++) acc += k[t] * base[off[t] + j];
		dst[j] = acc;
	}
}

void fl_taps(double *dst, const double *base, const int64_t *off, const double *k, int taps, long n) {
	fl_taps_impl(dst, base, off, k, taps, n);
}
