// The vector kernels of K-features' Z-step, for zrows_simd.go.
#include <stdint.h>

void fl_zstep_exact_rows(int n, int k, const double *bt, const double *q, const double *qg,
		const uint8_t *flip, int ncodes, int resync, const uint64_t *cur, const double *tol,
		uint64_t *out);

void fl_zblocks_rows(int n, int k, const double *bt, const double *g, int nb, const int *bsize,
		const int *bbits, const double *q, const double *qg, const int *qoff, const uint8_t *flips,
		int resync, const uint64_t *cur, const double *tol, uint64_t *out);
