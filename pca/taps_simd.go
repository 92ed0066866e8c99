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
	coff := make([]C.long, len(off))
	for t, o := range off {
		if o < 0 || o+n > len(base) {
			panic("pca: a blur tap reaches past its data")
		}
		coff[t] = C.long(o)
	}
	C.fl_taps((*C.double)(unsafe.Pointer(&dst[0])), (*C.double)(unsafe.Pointer(&base[0])), &coff[0],
		(*C.double)(unsafe.Pointer(&k[0])), C.int(len(k)), C.long(n))
}
