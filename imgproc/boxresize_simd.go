//go:build cgo && amd64 && linux && !purego

package imgproc

// #cgo CFLAGS: -O3 -std=c11
// #include "boxresize_simd.h"
import "C"

import (
	"image"
	"unsafe"
)

// haveBoxResize says that this build has the C passes of boxResize.
const haveBoxResize = true

// boxRows is imaging's horizontal pass over the opaque picture src into dst, whose
// width w's taps give.
func boxRows(src, dst *image.NRGBA, w opaqueWeights) {
	taps, index, aw := w.padded()
	C.fl_box_rows(bytesC(src.Pix), C.long(src.Stride), C.int(src.Rect.Dy()), bytesC(dst.Pix), C.long(dst.Stride), C.int(dst.Rect.Dx()),
		C.int(taps), int32C(index), doubleC(aw), doubleC(w.inv), bytesC(w.alpha))
}

// boxCols is imaging's vertical pass over the opaque picture src into dst, whose
// height w's taps give.
func boxCols(src, dst *image.NRGBA, w opaqueWeights) {
	n := 4 * src.Rect.Dx()
	acc := make([]float64, n)
	C.fl_box_cols(bytesC(src.Pix), C.long(src.Stride), C.long(n), bytesC(dst.Pix), C.long(dst.Stride), C.int(dst.Rect.Dy()),
		int32C(w.starts), int32C(w.index), doubleC(w.aw), doubleC(w.inv), bytesC(w.alpha), doubleC(acc))
}

func bytesC(b []byte) *C.uint8_t    { return (*C.uint8_t)(unsafe.Pointer(&b[0])) }
func int32C(v []int32) *C.int32_t   { return (*C.int32_t)(unsafe.Pointer(&v[0])) }
func doubleC(v []float64) *C.double { return (*C.double)(unsafe.Pointer(&v[0])) }
