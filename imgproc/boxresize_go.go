//go:build !(cgo && amd64 && linux) || purego

package imgproc

import "image"

// haveBoxResize says that this build has no C passes: boxResize leaves every picture to
// imaging.
const haveBoxResize = false

func boxRows(src, dst *image.NRGBA, w opaqueWeights) { panic("imgproc: no C resize in this build") }

func boxCols(src, dst *image.NRGBA, w opaqueWeights) { panic("imgproc: no C resize in this build") }
