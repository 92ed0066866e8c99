//go:build !(cgo && amd64 && linux) || purego

package imgproc

import "image"

// haveOpaqueResize says that this build has no C passes: Resize leaves every picture to
// imaging.
const haveOpaqueResize = false

func opaqueRows(src, dst *image.NRGBA, w opaqueWeights) { panic("imgproc: no C resize in this build") }

func opaqueCols(src, dst *image.NRGBA, w opaqueWeights) { panic("imgproc: no C resize in this build") }
