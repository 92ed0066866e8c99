//go:build cgo && !windows && !purego

package imgproc

// #cgo LDFLAGS: -lturbojpeg
// #include <stdlib.h>
// #include <turbojpeg.h>
import "C"

import (
	"errors"
	"image"
	"unsafe"
)

// haveTurboJPEG says that this build decodes JPEGs with libjpeg-turbo.
const haveTurboJPEG = true

// decodeJPEGReduced decodes a JPEG at the smallest of libjpeg-turbo's scales (n/8 for
// n = 1…8, applied in the DCT domain) that is still at least min on both sides, so
// that the box filter after it has as many source pixels per output pixel as it needs.
// Scaling in the DCT domain skips most of the inverse transform and the colour
// conversion of the pixels a reduction would throw away: on a camera JPEG it is several
// times faster than Go's image/jpeg decoding the full picture. It
// returns an error for what libjpeg-turbo cannot decode or only with a warning
// (truncated or damaged data, CMYK), and for a header whose size is not size, the one
// image/jpeg read and the pixel budget was checked against; the caller then decodes with
// image/jpeg, which says what is wrong in the same words as for every other file. The
// pixels are decoded into a buffer of bufs (libjpeg-turbo writes every byte).
func decodeJPEGReduced(data []byte, size, minSize image.Point, bufs *buffers) (image.Image, error) {
	if len(data) == 0 {
		return nil, errors.New("empty JPEG")
	}
	h := C.tjInitDecompress()
	if h == nil {
		return nil, errors.New("libjpeg-turbo: cannot start a decompressor")
	}
	defer C.tjDestroy(h)
	// libjpeg-turbo reads the bytes in place; they are Go memory without pointers, which
	// cgo allows for the length of the call.
	src := (*C.uchar)(unsafe.Pointer(&data[0]))
	n := C.ulong(len(data))
	var w, hgt, subsamp, colorspace C.int
	if C.tjDecompressHeader3(h, src, n, &w, &hgt, &subsamp, &colorspace) != 0 {
		return nil, tjError(h)
	}
	if int(w) != size.X || int(hgt) != size.Y || w <= 0 || hgt <= 0 {
		return nil, errors.New("libjpeg-turbo: the header's size differs from image/jpeg's")
	}
	if colorspace == C.TJCS_CMYK || colorspace == C.TJCS_YCCK {
		return nil, errors.New("libjpeg-turbo: CMYK JPEG")
	}
	num, den := scaleFor(int(w), int(hgt), minSize)
	ow := (int(w)*num + den - 1) / den
	oh := (int(hgt)*num + den - 1) / den
	flags := C.int(C.TJFLAG_STOPONWARNING)
	if colorspace == C.TJCS_GRAY {
		img := &image.Gray{Pix: bufs.pixels.get(ow * oh), Stride: ow, Rect: image.Rect(0, 0, ow, oh)}
		if C.tjDecompress2(h, src, n, (*C.uchar)(unsafe.Pointer(&img.Pix[0])), C.int(ow), C.int(img.Stride), C.int(oh), C.TJPF_GRAY, flags) != 0 {
			return nil, tjError(h)
		}
		return img, nil
	}
	// RGBA output fills alpha with 0xFF, which is what an NRGBA picture of an opaque
	// photo holds.
	img := &image.NRGBA{Pix: bufs.pixels.get(4 * ow * oh), Stride: 4 * ow, Rect: image.Rect(0, 0, ow, oh)}
	if C.tjDecompress2(h, src, n, (*C.uchar)(unsafe.Pointer(&img.Pix[0])), C.int(ow), C.int(img.Stride), C.int(oh), C.TJPF_RGBA, flags) != 0 {
		return nil, tjError(h)
	}
	return img, nil
}

// scaleFor returns the smallest reduction num/8 (num in 1…8) at which a w×h picture is
// still at least minSize on both sides.
func scaleFor(w, h int, minSize image.Point) (num, den int) {
	den = 8
	for num = 1; num < den; num++ {
		if (w*num+den-1)/den >= minSize.X && (h*num+den-1)/den >= minSize.Y {
			break
		}
	}
	return num, den
}

// tjError is libjpeg-turbo's last message on handle h.
func tjError(h C.tjhandle) error {
	return errors.New("libjpeg-turbo: " + C.GoString(C.tjGetErrorStr2(h)))
}
