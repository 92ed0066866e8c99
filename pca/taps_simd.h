// The blur's taps in vector lanes, for taps_simd.go.
void fl_taps(double *dst, const double *base, const long *off, const double *k, int taps, long n);
