//go:build cgo && amd64 && linux && !purego

// The vector kernels of K-features' Z-step (zrows_simd.go says what each does).

#include "zrows_simd.h"
#include <string.h>

typedef double fl_v8d __attribute__((vector_size(64)));
typedef int64_t fl_v8i __attribute__((vector_size(64)));
typedef uint64_t fl_v8u __attribute__((vector_size(64)));

// fl_code_dot is Σ b[j*n] over the set bits j of z, lowest first: codeDot's sum.
static double fl_code_dot(uint64_t z, const double *b, int n) {
	double s = 0;
	for (; z != 0; z &= z - 1) s += b[(long)__builtin_ctzll(z) * n];
	return s;
}

// fl_walk is zStepExact's walk for eight rows, one a lane: b holds the k values of each
// row's b, best each row's bound to beat (its current code's value less its tolerance);
// it sets besti, per lane, to the Gray index of the first code below that bound and
// below every code before it, −1 for none (vectors by pointer: no vector ABI between
// clones). Every RESYNC steps the running linear term is
// summed again from the code's bits, as zStepExact does.
static inline __attribute__((always_inline)) void fl_walk(const fl_v8d *b, int k, const fl_v8d *bound,
		const double *qg, const uint8_t *flip, int ncodes, int resync, fl_v8i *out) {
	fl_v8d best = *bound;
	fl_v8d bb[32];
	for (int j = 0; j < k; j++) {
		bb[j] = 2 * b[j];
		bb[j + k] = -2 * b[j];
	}
	fl_v8i besti = {-1, -1, -1, -1, -1, -1, -1, -1};
	for (int start = 0; start < ncodes; start += resync) {
		int end = start + resync < ncodes ? start + resync : ncodes;
		uint64_t g = (uint64_t)(start ^ (start >> 1));
		fl_v8d s = {0, 0, 0, 0, 0, 0, 0, 0};
		for (uint64_t z = g; z != 0; z &= z - 1) s += b[__builtin_ctzll(z)];
		fl_v8d lin = 2 * s;
		fl_v8d v = qg[start] - lin;
		fl_v8i lt = v < best;
		best = (fl_v8d)(((fl_v8i)v & lt) | ((fl_v8i)best & ~lt));
		besti = ((fl_v8i){start, start, start, start, start, start, start, start} & lt) | (besti & ~lt);
		for (int i = start + 1; i < end; i++) {
			lin += bb[flip[i] & 31];
			v = qg[i] - lin;
			lt = v < best;
			best = (fl_v8d)(((fl_v8i)v & lt) | ((fl_v8i)best & ~lt));
			besti = ((fl_v8i){i, i, i, i, i, i, i, i} & lt) | (besti & ~lt);
		}
	}
	*out = besti;
}

// fl_zstep_rows is zStepExact for every row of bt (k×n, column i row i's b), eight
// rows a lane each: the same operations in the same order per row as the Go walk, so
// the same codes. Lanes past n walk zeros and are not written.
__attribute__((target_clones("avx512f", "avx2", "default")))
static void fl_zstep_rows(int n, int k, const double *bt, const double *q, const double *qg,
		const uint8_t *flip, int ncodes, int resync, const uint64_t *cur, const double *tol,
		uint64_t *out) {
	for (int i0 = 0; i0 < n; i0 += 8) {
		int m = n - i0 < 8 ? n - i0 : 8;
		double bcol[16][8];
		memset(bcol, 0, sizeof bcol);
		fl_v8d best, bv[16];
		for (int r = 0; r < 8; r++) {
			best[r] = 0;
			if (r >= m) continue;
			for (int j = 0; j < k; j++) bcol[j][r] = bt[(long)j * n + i0 + r];
			uint64_t c = cur[i0 + r];
			best[r] = (q[c] - 2 * fl_code_dot(c, &bt[i0 + r], n)) - tol[i0 + r];
		}
		for (int j = 0; j < k; j++) memcpy(&bv[j], bcol[j], sizeof bv[j]);
		fl_v8i besti;
		fl_walk(bv, k, &best, qg, flip, ncodes, resync, &besti);
		for (int r = 0; r < m; r++) {
			long bi = besti[r];
			out[i0 + r] = bi < 0 ? cur[i0 + r] : (uint64_t)(bi ^ (bi >> 1));
		}
	}
}

void fl_zstep_exact_rows(int n, int k, const double *bt, const double *q, const double *qg,
		const uint8_t *flip, int ncodes, int resync, const uint64_t *cur, const double *tol,
		uint64_t *out) {
	fl_zstep_rows(n, k, bt, q, qg, flip, ncodes, resync, cur, tol, out);
}
// fl_zblocks_rows is zBlocks.step for every row of bt (k×n), eight rows a lane each:
// every lane visits the blocks in the same order, and a lane whose pass changed nothing
// is at the code its row's step ends at (visiting the blocks again changes nothing: the
// same z and Gz give the same c), so the group runs until no lane changes. Per lane the
// operations are those of the Go step in the same order, so the codes are the same.
//   g: G = AAᵀ, k×k.  Blocks: nb of them; block t has bsize[t] bits bbits[6t…], its
//   quadTable at q+qoff[t] and qg+qoff[t], its Gray walk flips+qoff[t] (2^bsize codes).
__attribute__((target_clones("avx512f", "avx2", "default")))
static void fl_zblocks(int n, int k, const double *bt, const double *g, int nb, const int *bsize,
		const int *bbits, const double *q, const double *qg, const int *qoff, const uint8_t *flips,
		int resync, const uint64_t *cur, const double *tol, uint64_t *out) {
	fl_v8d gz[64];
	for (int i0 = 0; i0 < n; i0 += 8) {
		int m = n - i0 < 8 ? n - i0 : 8;
		fl_v8u z = {0, 0, 0, 0, 0, 0, 0, 0};
		fl_v8d tv = {0, 0, 0, 0, 0, 0, 0, 0};
		double gzs[8][64];
		memset(gzs, 0, sizeof gzs);
		for (int r = 0; r < m; r++) {
			z[r] = cur[i0 + r];
			tv[r] = tol[i0 + r];
			for (uint64_t c = cur[i0 + r]; c != 0; c &= c - 1) {
				const double *row = g + (long)__builtin_ctzll(c) * k;
				for (int j = 0; j < k; j++) gzs[r][j] += row[j];
			}
		}
		for (int j = 0; j < k; j++)
			for (int r = 0; r < 8; r++) gz[j][r] = gzs[r][j];
		for (int changed = 1; changed;) {
			changed = 0;
			for (int t = 0; t < nb; t++) {
				int mb = bsize[t];
				const int *bits = bbits + 6 * t;
				const double *bq = q + qoff[t], *bqg = qg + qoff[t];
				const uint8_t *flip = flips + qoff[t];
				int ncodes = 1 << mb;
				fl_v8i bc = {0, 0, 0, 0, 0, 0, 0, 0}; // the block's bits of each lane's code
				for (int r = 0; r < mb; r++) bc |= (fl_v8i)((z >> bits[r]) & 1) << r;
				// c_i = b_i − (Gz)_i + Σ_{j∈B, z_j=1} G_ij.
				fl_v8d c[6];
				for (int r = 0; r < mb; r++) {
					int i = bits[r];
					fl_v8d bv;
					for (int l = 0; l < 8; l++) bv[l] = l < m ? bt[(long)i * n + i0 + l] : 0;
					fl_v8d s = bv - gz[i];
					for (int u = 0; u < mb; u++) {
						fl_v8i on = -((bc >> u) & 1);
						fl_v8d add = s + g[(long)i * k + bits[u]];
						s = (fl_v8d)(((fl_v8i)add & on) | ((fl_v8i)s & ~on));
					}
					c[r] = s;
				}
				// The block's exact step from its current part (zStepExact).
				fl_v8d dot = {0, 0, 0, 0, 0, 0, 0, 0};
				for (int r = 0; r < mb; r++) {
					fl_v8i on = -((bc >> r) & 1);
					fl_v8d add = dot + c[r];
					dot = (fl_v8d)(((fl_v8i)add & on) | ((fl_v8i)dot & ~on));
				}
				fl_v8d qc;
				for (int l = 0; l < 8; l++) qc[l] = bq[bc[l]];
				fl_v8d best = (qc - 2 * dot) - tv;
				fl_v8i besti;
				fl_walk(c, mb, &best, bqg, flip, ncodes, resync, &besti);
				fl_v8i next = bc;
				for (int l = 0; l < 8; l++)
					if (besti[l] >= 0) next[l] = besti[l] ^ (besti[l] >> 1);
				fl_v8i diff = next ^ bc;
				int any = 0;
				for (int l = 0; l < m; l++) any |= diff[l] != 0;
				if (!any) continue;
				changed = 1;
				for (int r = 0; r < mb; r++) {
					fl_v8i flipped = -((diff >> r) & 1);
					fl_v8i on = (next >> r) & 1;
					fl_v8d sign = {1, 1, 1, 1, 1, 1, 1, 1};
					for (int l = 0; l < 8; l++)
						if (!on[l]) sign[l] = -1;
					int i = bits[r];
					z ^= (fl_v8u)flipped & ((fl_v8u){1, 1, 1, 1, 1, 1, 1, 1} << i);
					const double *row = g + (long)i * k;
					for (int j = 0; j < k; j++) {
						fl_v8d add = gz[j] + sign * row[j];
						gz[j] = (fl_v8d)(((fl_v8i)add & flipped) | ((fl_v8i)gz[j] & ~flipped));
					}
				}
			}
		}
		for (int r = 0; r < m; r++) out[i0 + r] = (uint64_t)z[r];
	}
}

void fl_zblocks_rows(int n, int k, const double *bt, const double *g, int nb, const int *bsize,
		const int *bbits, const double *q, const double *qg, const int *qoff, const uint8_t *flips,
		int resync, const uint64_t *cur, const double *tol, uint64_t *out) {
	fl_zblocks(n, k, bt, g, nb, bsize, bbits, q, qg, qoff, flips, resync, cur, tol, out);
}
