//go:build cgo && amd64 && linux && !purego

package imgproc

// #cgo CFLAGS: -O3 -std=c11
// #include "opaqueresize_simd.h"
import "C"

import (
	"image"
	"unsafe"
)

// haveOpaqueResize says that this build has the C passes of Resize.
const haveOpaqueResize = true

// opaqueRows is imaging's horizontal pass over the opaque picture src into dst, whose
// width w's taps give.
func opaqueRows(src, dst *image.NRGBA, w opaqueWeights) {
	taps, index, aw := w.padded()
	C.fl_opaque_rows(bytesC(src.Pix), C.long(src.Stride), C.int(src.Rect.Dy()), bytesC(dst.Pix), C.long(dst.Stride), C.int(dst.Rect.Dx()),
		C.int(taps), int32C(index), doubleC(aw), doubleC(w.inv), bytesC(w.alpha))
}

// opaqueCols is imaging's vertical pass over the opaque picture src into dst, whose
// height w's taps give.
func opaqueCols(src, dst *image.NRGBA, w opaqueWeights) {
	n := 4 * src.Rect.Dx()
	acc := make([]float64, n)
	C.fl_opaque_cols(bytesC(src.Pix), C.long(src.Stride), C.long(n), bytesC(dst.Pix), C.long(dst.Stride), C.int(dst.Rect.Dy()),
		int32C(w.starts), int32C(w.index), doubleC(w.aw), doubleC(w.inv), bytesC(w.alpha), doubleC(acc))
}

func bytesC(b []byte) *C.uint8_t    { return (*C.uint8_t)(unsafe.Pointer(&b[0])) }
func int32C(v []int32) *C.int32_t   { return (*C.int32_t)(unsafe.Pointer(&v[0])) }
func doubleC(v []float64) *C.double { return (*C.double)(unsafe.Pointer(&v[0])) }
