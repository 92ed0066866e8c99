//go:build cgo && amd64 && linux && !purego

package pca

// #cgo CFLAGS: -O2 -std=c11
// #include "taps_simd.h"
import "C"

import "unsafe"

// taps sets dst[j] = Σ_t k[t]·base[off[t]+j] for j < len(dst), summed from zero in tap
// order: what clearing dst and adding each tap with floats.AddScaled gives, to the bit,
// in one pass over dst, eight values a vector (AVX-512 or AVX2 where the CPU has them).
func taps(dst, base []float64, off []int, k []float64) {
	n := len(dst)
	if n == 0 || len(k) == 0 {
		clear(dst)
		return
	}
	if len(off) != len(k) {
		panic("pca: blur taps without one offset each")
	}
	for _, o := range off {
		if o < 0 || o+n > len(base) {
			panic("pca: a blur tap reaches past its data")
		}
	}
	// int is int64 here (amd64): the offsets go to C as they are.
	C.fl_taps((*C.double)(unsafe.Pointer(&dst[0])), (*C.double)(unsafe.Pointer(&base[0])), (*C.int64_t)(unsafe.Pointer(&off[0])),
		(*C.double)(unsafe.Pointer(&k[0])), C.int(len(k)), C.long(n))
}
