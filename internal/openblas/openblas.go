//go:build cgo && !windows && !purego

package openblas

// #cgo LDFLAGS: -lopenblas
// #include <stdlib.h>
// #include <string.h>
// #include <strings.h>
// void openblas_set_num_threads(int n);
// int openblas_get_num_threads(void);
// char *openblas_get_corename(void);
// // The pthreads build's thread server: stopped once the calls are single-threaded.
// // Weak, so that a build without one (serial, OpenMP) links without it.
// extern int blas_thread_shutdown_(void) __attribute__((weak));
// static void fl_blas_stop_threads(void) { if (blas_thread_shutdown_) blas_thread_shutdown_(); }
// // The kernel table of a DYNAMIC_ARCH OpenBLAS (Debian's): weak, so that a build for one
// // target links without them.
// extern void gotoblas_dynamic_init(void) __attribute__((weak));
// extern void gotoblas_dynamic_quit(void) __attribute__((weak));
// // fl_blas_retarget re-chooses the kernels of an OpenBLAS that did not recognise this
// // CPU and fell back to its oldest x86-64 ones (Prescott: SSE3), with the newest the CPU
// // and the OS support; the user's OPENBLAS_CORETYPE, and a CPU OpenBLAS knows, are left
// // alone. It returns the core it chose, or NULL.
// static const char *fl_blas_retarget(void) {
// #if defined(__x86_64__)
// 	if (getenv("OPENBLAS_CORETYPE") != NULL || !gotoblas_dynamic_init || !gotoblas_dynamic_quit) return NULL;
// 	const char *cur = openblas_get_corename();
// 	if (cur == NULL || strcasecmp(cur, "prescott") != 0) return NULL;
// 	__builtin_cpu_init();
// 	const char *want = NULL;
// 	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
// 	    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) want = "SkylakeX";
// 	else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) want = "Haswell";
// 	else if (__builtin_cpu_supports("avx")) want = "Sandybridge";
// 	if (want == NULL) return NULL;
// 	setenv("OPENBLAS_CORETYPE", want, 1);
// 	gotoblas_dynamic_quit();
// 	gotoblas_dynamic_init();
// 	unsetenv("OPENBLAS_CORETYPE");
// 	return openblas_get_corename();
// #else
// 	return NULL;
// #endif
// }
import "C"

import "gonum.org/v1/netlib/blas/netlib"

// BLAS is OpenBLAS through gonum's binding, set up by this package's init.
//
// It runs single-threaded: with its own threads a product's result changed with their
// number (by 2e−5 on a 600 × 700 test), so the result would depend on the machine.
// Callers split large products into fixed chunks on their own workers.
var BLAS netlib.Implementation

func init() {
	C.fl_blas_retarget()
	Threads(1)
}

// Core names the kernels OpenBLAS runs on this machine (its core type, e.g. "SkylakeX").
// An OpenBLAS older than the CPU does not recognise it and falls back to its SSE3
// kernels; init then chooses the newest kernels the CPU and the OS support
// (docs/DESIGN.md).
func Core() string { return C.GoString(C.openblas_get_corename()) }

// Threads sets the number of threads OpenBLAS uses and returns the number it used
// before; n < 1 only reads it.
//
// Setting one thread also stops the pthreads build's thread server, which any setting
// starts again. It starts a thread per core when the library loads, and each spins on
// sched_yield for about 2^28 cycles waiting for work that single-threaded calls never
// give it: a core taken from the images' decoding for the first tenth of a second of
// every run. Single-threaded calls do not use the server.
func Threads(n int) int {
	old := int(C.openblas_get_num_threads())
	if n >= 1 {
		C.openblas_set_num_threads(C.int(n))
		if n == 1 {
			C.fl_blas_stop_threads()
		}
	}
	return old
}
