//go:build purego || windows || !cgo

package imgproc

import "image"

// haveTurboJPEG says that this build decodes JPEGs with libjpeg-turbo: not this one.
const haveTurboJPEG = false

// decodeJPEGReduced, in the builds without libjpeg-turbo (Windows, the purego tag),
// always returns errNoTurboJPEG: the caller then decodes the JPEG in full with
// image/jpeg and reduces it with the same box filter, several times slower on a camera
// JPEG than libjpeg-turbo's decode at 1/8. An arithmetic-coded JPEG, which image/jpeg
// cannot read, is skipped with that reason.
func decodeJPEGReduced(data []byte, size, minSize image.Point, bufs *buffers) (image.Image, error) {
	return nil, errNoTurboJPEG
}
