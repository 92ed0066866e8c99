// imaging's box resize of opaque pictures, for opaqueresize_simd.go.
#include <stdint.h>

void fl_opaque_rows(const uint8_t *src, long srcStride, int rows, uint8_t *dst, long dstStride, int dstW,
	int taps, const int32_t *idx, const double *aw, const double *inv, const uint8_t *alpha);
void fl_opaque_cols(const uint8_t *src, long srcStride, long n, uint8_t *dst, long dstStride, int dstH,
	const int32_t *starts, const int32_t *idx, const double *aw, const double *inv, const uint8_t *alpha, double *acc);
