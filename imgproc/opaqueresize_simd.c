//go:build cgo && amd64 && linux && !purego

// imaging's box resize of opaque 8-bit NRGBA pictures, to the byte
// (opaqueresize_simd.go says what it computes).

#include "opaqueresize_simd.h"
#include <immintrin.h>
#include <string.h>

// fl_clamp8 is imaging's clamp: x + 0.5 truncated toward zero, kept in [0, 255]. x is
// a weighted mean of bytes (with a filter's negative lobes, a little outside [0, 255]),
// so x + 0.5 fits an int32 and truncates as imaging's int64.
static inline uint8_t fl_clamp8(double x) {
	int32_t v = (int32_t)(x + 0.5);
	v = v > 255 ? 255 : v;
	v = v > 0 ? v : 0;
	return (uint8_t)v;
}

// fl_row resizes one row of src to dstW pixels (imaging's resizeHorizontal on an opaque
// picture): output x is Σ s·aw[t] over its taps t in [x·taps, (x+1)·taps), summed from
// zero in tap order with each product rounded (no contraction under -std=c11), times
// inv[x]; its alpha is alpha[x].
static void fl_row(const uint8_t *s, uint8_t *d, int dstW, int taps, const int32_t *idx, const double *aw,
	const double *inv, const uint8_t *alpha) {
	for (int x = 0; x < dstW; x++) {
		double r = 0, g = 0, b = 0;
		for (int t = x * taps; t < (x + 1) * taps; t++) {
			const uint8_t *p = s + 4L * idx[t];
			r += (double)p[0] * aw[t];
			g += (double)p[1] * aw[t];
			b += (double)p[2] * aw[t];
		}
		d[4 * x] = fl_clamp8(r * inv[x]);
		d[4 * x + 1] = fl_clamp8(g * inv[x]);
		d[4 * x + 2] = fl_clamp8(b * inv[x]);
		d[4 * x + 3] = alpha[x];
	}
}

// fl_rows4 is fl_row on four rows at once, a row in each lane of AVX2's doubles: the
// same products and sums, lane by lane (AVX2 without FMA, so none is fused).
__attribute__((target("avx2")))
static void fl_rows4(const uint8_t *s, long srcStride, uint8_t *d, long dstStride, int dstW, int taps,
	const int32_t *idx, const double *aw, const double *inv, const uint8_t *alpha) {
	const __m128i bytes = _mm_set1_epi32(0xff), zero = _mm_setzero_si128(), top = _mm_set1_epi32(255);
	const __m256d half = _mm256_set1_pd(0.5);
	for (int x = 0; x < dstW; x++) {
		__m256d r = _mm256_setzero_pd(), g = r, b = r;
		for (int t = x * taps; t < (x + 1) * taps; t++) {
			long o = 4L * idx[t];
			int32_t p[4];
			for (int k = 0; k < 4; k++) memcpy(&p[k], s + k * srcStride + o, 4);
			__m128i px = _mm_loadu_si128((const __m128i *)p);
			__m256d w = _mm256_set1_pd(aw[t]);
			r = _mm256_add_pd(r, _mm256_mul_pd(_mm256_cvtepi32_pd(_mm_and_si128(px, bytes)), w));
			g = _mm256_add_pd(g, _mm256_mul_pd(_mm256_cvtepi32_pd(_mm_and_si128(_mm_srli_epi32(px, 8), bytes)), w));
			b = _mm256_add_pd(b, _mm256_mul_pd(_mm256_cvtepi32_pd(_mm_and_si128(_mm_srli_epi32(px, 16), bytes)), w));
		}
		__m256d iv = _mm256_set1_pd(inv[x]);
		__m128i ri = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(r, iv), half));
		__m128i gi = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(g, iv), half));
		__m128i bi = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(b, iv), half));
		ri = _mm_min_epi32(_mm_max_epi32(ri, zero), top);
		gi = _mm_min_epi32(_mm_max_epi32(gi, zero), top);
		bi = _mm_min_epi32(_mm_max_epi32(bi, zero), top);
		__m128i out = _mm_or_si128(_mm_or_si128(ri, _mm_slli_epi32(gi, 8)),
			_mm_or_si128(_mm_slli_epi32(bi, 16), _mm_set1_epi32((int32_t)((uint32_t)alpha[x] << 24))));
		int32_t q[4];
		_mm_storeu_si128((__m128i *)q, out);
		for (int k = 0; k < 4; k++) memcpy(d + k * dstStride + 4L * x, &q[k], 4);
	}
}

// fl_opaque_rows resizes each of rows rows of src to dstW pixels: four at a time where the
// CPU has AVX2, else one by one. Every output has taps taps, the ones past its own
// weighing 0 (see padded in opaqueresize.go).
void fl_opaque_rows(const uint8_t *src, long srcStride, int rows, uint8_t *dst, long dstStride, int dstW,
	int taps, const int32_t *idx, const double *aw, const double *inv, const uint8_t *alpha) {
	int y = 0;
	if (__builtin_cpu_supports("avx2")) {
		for (; y + 4 <= rows; y += 4) {
			fl_rows4(src + (long)y * srcStride, srcStride, dst + (long)y * dstStride, dstStride, dstW, taps, idx, aw, inv, alpha);
		}
	}
	for (; y < rows; y++) {
		fl_row(src + (long)y * srcStride, dst + (long)y * dstStride, dstW, taps, idx, aw, inv, alpha);
	}
}

// fl_opaque_cols resizes the columns of src (n bytes a row) to dstH rows (imaging's
// resizeVertical on an opaque picture), a whole row at a time so that the byte loops
// run in vector lanes: row y is Σ row(idx[t])·aw[t] over its taps, from zero in tap
// order, times inv[y], its alpha alpha[y]; acc is room for n doubles.
__attribute__((target_clones("avx2", "default")))
void fl_opaque_cols(const uint8_t *src, long srcStride, long n, uint8_t *dst, long dstStride, int dstH,
	const int32_t *starts, const int32_t *idx, const double *aw, const double *inv, const uint8_t *alpha, double *acc) {
	for (int y = 0; y < dstH; y++) {
		for (long j = 0; j < n; j++) acc[j] = 0;
		for (int t = starts[y]; t < starts[y + 1]; t++) {
			const uint8_t *s = src + (long)idx[t] * srcStride;
			double w = aw[t];
			for (long j = 0; j < n; j++) acc[j] += (double)s[j] * w;
		}
		uint8_t *d = dst + (long)y * dstStride;
		double iv = inv[y];
		for (long j = 0; j < n; j++) d[j] = fl_clamp8(acc[j] * iv);
		for (long j = 3; j < n; j += 4) d[j] = alpha[y];
	}
}
