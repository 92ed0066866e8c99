// The blur's taps in vector lanes, for taps_simd.go.
#include <stdint.h>

void fl_taps(double *dst, const double *base, const int64_t *off, const double *k, int taps, long n);
