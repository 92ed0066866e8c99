package imgproc

import (
	"image"
	"image/color"
)

// BT.601 luma weights, what Octave's rgb2gray and PIL's "L" use.
const (
	lumaR = 0.299
	lumaG = 0.587
	lumaB = 0.114
)

// toVector writes img's pixels into dst (len W·H·channels) with values in [0,1],
// transparent pixels composited on white. The common decoder types are read straight
// from their Pix slices; this is the hot path of loading.
func toVector(img image.Image, gray bool, dst []float64) {
	b := img.Bounds()
	w := b.Dx()
	put := func(i int, r, g, bl float64) {
		if gray {
			if r == g && g == bl {
				dst[i] = r // keep grey samples exact: the weights do not sum to 1 in floating point
				return
			}
			dst[i] = lumaR*r + lumaG*g + lumaB*bl
			return
		}
		dst[3*i], dst[3*i+1], dst[3*i+2] = r, g, bl
	}
	const inv = 1.0 / 255
	switch m := img.(type) {
	case *FloatImage:
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < w; x++ {
				s := m.Pix[((y+b.Min.Y)*m.W+x+b.Min.X)*m.Channels:]
				if m.Channels == 1 {
					v := float64(s[0])
					put(y*w+x, v, v, v)
				} else {
					put(y*w+x, float64(s[0]), float64(s[1]), float64(s[2]))
				}
			}
		}
	case *image.Gray:
		for y := 0; y < b.Dy(); y++ {
			row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < w; x++ {
				v := float64(row[x]) * inv
				put(y*w+x, v, v, v)
			}
		}
	case *image.YCbCr:
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < w; x++ {
				yi := m.YOffset(b.Min.X+x, b.Min.Y+y)
				ci := m.COffset(b.Min.X+x, b.Min.Y+y)
				r, g, bl := color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
				put(y*w+x, float64(r)*inv, float64(g)*inv, float64(bl)*inv)
			}
		}
	case *image.NRGBA:
		for y := 0; y < b.Dy(); y++ {
			row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < w; x++ {
				p := row[4*x : 4*x+4]
				a := float64(p[3]) * inv
				white := 1 - a
				put(y*w+x, float64(p[0])*inv*a+white, float64(p[1])*inv*a+white, float64(p[2])*inv*a+white)
			}
		}
	case *image.RGBA:
		for y := 0; y < b.Dy(); y++ {
			row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := 0; x < w; x++ {
				p := row[4*x : 4*x+4]
				white := 1 - float64(p[3])*inv // premultiplied: add the uncovered white
				put(y*w+x, float64(p[0])*inv+white, float64(p[1])*inv+white, float64(p[2])*inv+white)
			}
		}
	default:
		const inv16 = 1.0 / 65535
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < w; x++ {
				r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA() // premultiplied
				white := 1 - float64(a)*inv16
				put(y*w+x, float64(r)*inv16+white, float64(g)*inv16+white, float64(bl)*inv16+white)
			}
		}
	}
}

// ImageToVector converts a picture to a [0,1] vector, grey (1 channel) or colour (3).
func ImageToVector(img image.Image, gray bool) []float64 {
	b := img.Bounds()
	c := 3
	if gray {
		c = 1
	}
	v := make([]float64, b.Dx()*b.Dy()*c)
	toVector(img, gray, v)
	return v
}

// VectorToImage turns a pixel vector back into a picture, clamping to [0,1]: *image.Gray
// for one channel, *image.NRGBA for three.
func VectorToImage(v []float64, w, h, channels int) image.Image {
	if channels == 1 {
		img := image.NewGray(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = unit8(v[i])
		}
		return img
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ {
		img.Pix[4*i] = unit8(v[3*i])
		img.Pix[4*i+1] = unit8(v[3*i+1])
		img.Pix[4*i+2] = unit8(v[3*i+2])
		img.Pix[4*i+3] = 255
	}
	return img
}

func unit8(v float64) uint8 {
	switch {
	case !(v > 0):
		return 0
	case v >= 1:
		return 255
	}
	return uint8(v*255 + 0.5)
}

// Diverging renders a signed vector — a feature, positive where it adds brightness — on a
// blue–white–red colour map symmetric around zero, scaled by the largest magnitude.
func Diverging(v []float64, w, h, channels int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	vals := make([]float64, w*h)
	var peak float64
	for i := range vals {
		var s float64
		for c := 0; c < channels; c++ {
			s += v[i*channels+c]
		}
		s /= float64(channels)
		vals[i] = s
		peak = max(peak, s, -s)
	}
	for i, s := range vals {
		t := 0.0
		if peak > 0 {
			t = s / peak
		}
		r, g, b := divergingColour(t)
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = r, g, b, 255
	}
	return img
}

// divergingColour maps t in [−1,1] to blue (−1), white (0) and red (+1).
func divergingColour(t float64) (uint8, uint8, uint8) {
	blue := [3]float64{33, 102, 172}
	red := [3]float64{178, 24, 43}
	end := red
	if t < 0 {
		end, t = blue, -t
	}
	t = min(t, 1)
	mix := func(c float64) uint8 { return uint8(255 + (c-255)*t + 0.5) }
	return mix(end[0]), mix(end[1]), mix(end[2])
}
