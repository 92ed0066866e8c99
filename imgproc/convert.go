package imgproc

import (
	"image"
	"image/draw"
)

// OnWhite returns img composited over white, as the loader and the segmenter read it, so
// that what is shown is what is analysed: a transparent card drawn as it is shows black
// on a dark theme. An opaque picture is returned as it is. The copy is 16 bits a sample,
// so a 16-bit picture keeps its depth.
func OnWhite(img image.Image) image.Image {
	if o, ok := img.(interface{ Opaque() bool }); ok && o.Opaque() {
		return img
	}
	if _, ok := img.(*FloatImage); ok {
		return img // no alpha
	}
	out := image.NewRGBA64(img.Bounds())
	draw.Draw(out, out.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Over)
	return out
}

// ImageToVector converts a picture to a vector laid out as v[(y*W+x)*C+c], with C = 1
// (BT.601 luma) when gray is set and 3 otherwise. Samples are in [0, 1], transparent
// pixels composited on white; a *FloatImage's samples are kept as they are.
func ImageToVector(img image.Image, gray bool) []float64 {
	return ImageToVectorInto(nil, img, gray)
}

// ImageToVectorInto is ImageToVector into buf when it is large enough (a new slice
// otherwise), so that reading many pictures one after another reuses one buffer.
func ImageToVectorInto(buf []float64, img image.Image, gray bool) []float64 {
	b := img.Bounds()
	c := 3
	if gray {
		c = 1
	}
	n := b.Dx() * b.Dy() * c
	if cap(buf) < n {
		buf = make([]float64, n)
	}
	v := buf[:n]
	toVector(img, c, v)
	return v
}

// VectorToImage turns a pixel vector laid out as v[(y*w+x)*c+k] back into a picture,
// clamping samples to [0, 1]: an *image.Gray for c = 1, an *image.NRGBA for c = 3. Any
// other c gives the grey mean of the channels. Samples missing from a short v, and NaN,
// show as black.
func VectorToImage(v []float64, w, h, c int) image.Image {
	w, h = max(w, 0), max(h, 0)
	at := func(i int) float64 {
		if i < len(v) {
			return v[i]
		}
		return 0
	}
	if c == 3 {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for i := 0; i < w*h; i++ {
			img.Pix[4*i] = unit8(at(3 * i))
			img.Pix[4*i+1] = unit8(at(3*i + 1))
			img.Pix[4*i+2] = unit8(at(3*i + 2))
			img.Pix[4*i+3] = 0xff
		}
		return img
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	if c < 1 {
		return img
	}
	for i := range img.Pix {
		var s float64
		for k := 0; k < c; k++ {
			s += at(i*c + k)
		}
		img.Pix[i] = unit8(s / float64(c))
	}
	return img
}

// unit8 maps [0, 1] to a byte, clamping; NaN gives 0.
func unit8(v float64) uint8 {
	switch {
	case !(v > 0):
		return 0
	case v >= 1:
		return 0xff
	}
	return uint8(v*255 + 0.5)
}
