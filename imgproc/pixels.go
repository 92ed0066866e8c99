package imgproc

import "image"

// BT.601 luma weights, what Octave's rgb2gray and PIL's "L" use.
const (
	lumaR = 0.299
	lumaG = 0.587
	lumaB = 0.114
)

// unit8LUT[v] = v/255: one table load instead of a division per sample.
var unit8LUT = func() (t [256]float64) {
	for i := range t {
		t[i] = float64(i) / 255
	}
	return t
}()

const inv16 = 1.0 / 65535

// rowReader reads a picture one row at a time as float samples: 1 channel for grey
// sources, 3 for everything else, transparent pixels composited on white. The common
// decoder types are read straight from their Pix slices — this is the hot loop of
// loading — and only unusual types go through At.
type rowReader struct {
	img      image.Image
	b        image.Rectangle
	channels int
	palette  []float64 // *image.Paletted: 3 composited samples per palette entry
	generic  bool      // read through At: a type or a layout the fast paths do not cover
}

func newRowReader(img image.Image) *rowReader {
	r := &rowReader{img: img, b: img.Bounds(), channels: 3}
	switch m := img.(type) {
	case *image.Gray, *image.Gray16:
		r.channels = 1
	case *FloatImage:
		if m.Channels < 1 || m.W < 0 || m.H < 0 || len(m.Pix) < m.W*m.H*m.Channels {
			r.generic = true // malformed: At returns black where samples are missing
		} else if m.Channels == 1 {
			r.channels = 1
		}
	case *image.YCbCr:
		// The fast path shifts coordinates to find chroma samples, which matches
		// COffset's division only for non-negative coordinates (true of every decoder).
		r.generic = m.Rect.Min.X < 0 || m.Rect.Min.Y < 0
	case *image.NYCbCrA:
		r.generic = m.Rect.Min.X < 0 || m.Rect.Min.Y < 0
	case *image.Paletted:
		r.palette = make([]float64, 3*len(m.Palette))
		for i, c := range m.Palette {
			cr, cg, cb, ca := c.RGBA()
			white := 1 - float64(ca)*inv16
			r.palette[3*i] = float64(cr)*inv16 + white
			r.palette[3*i+1] = float64(cg)*inv16 + white
			r.palette[3*i+2] = float64(cb)*inv16 + white
		}
	}
	return r
}

// read fills dst (width·channels samples) with row y, counted from the top of the bounds.
func (r *rowReader) read(y int, dst []float64) {
	b := r.b
	w := b.Dx()
	dst = dst[:w*r.channels]
	img := r.img
	if r.generic {
		img = nil // falls to the default case
	}
	switch m := img.(type) {
	case *image.YCbCr:
		readYCbCr(m, nil, b, y, dst)
	case *image.NYCbCrA:
		readYCbCr(&m.YCbCr, m.A[(b.Min.Y+y-m.Rect.Min.Y)*m.AStride+b.Min.X-m.Rect.Min.X:], b, y, dst)
	case *image.Gray:
		src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:w]
		for x, v := range src {
			dst[x] = unit8LUT[v]
		}
	case *image.Gray16:
		src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:2*w]
		for x := range dst {
			dst[x] = float64(uint16(src[2*x])<<8|uint16(src[2*x+1])) * inv16
		}
	case *image.RGBA: // premultiplied: the uncovered part (1 − alpha) shows the white
		src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*w]
		for x := 0; x < w; x++ {
			p := src[4*x : 4*x+4 : 4*x+4]
			white := 1 - unit8LUT[p[3]]
			dst[3*x] = unit8LUT[p[0]] + white
			dst[3*x+1] = unit8LUT[p[1]] + white
			dst[3*x+2] = unit8LUT[p[2]] + white
		}
	case *image.NRGBA:
		src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*w]
		for x := 0; x < w; x++ {
			p := src[4*x : 4*x+4 : 4*x+4]
			if p[3] == 0xff {
				dst[3*x] = unit8LUT[p[0]]
				dst[3*x+1] = unit8LUT[p[1]]
				dst[3*x+2] = unit8LUT[p[2]]
				continue
			}
			a := unit8LUT[p[3]]
			dst[3*x] = unit8LUT[p[0]]*a + 1 - a
			dst[3*x+1] = unit8LUT[p[1]]*a + 1 - a
			dst[3*x+2] = unit8LUT[p[2]]*a + 1 - a
		}
	case *image.RGBA64:
		src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:8*w]
		for x := 0; x < w; x++ {
			p := src[8*x : 8*x+8 : 8*x+8]
			white := 1 - float64(uint16(p[6])<<8|uint16(p[7]))*inv16
			for c := 0; c < 3; c++ {
				dst[3*x+c] = float64(uint16(p[2*c])<<8|uint16(p[2*c+1]))*inv16 + white
			}
		}
	case *image.NRGBA64:
		src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:8*w]
		for x := 0; x < w; x++ {
			p := src[8*x : 8*x+8 : 8*x+8]
			a := float64(uint16(p[6])<<8|uint16(p[7])) * inv16
			for c := 0; c < 3; c++ {
				dst[3*x+c] = float64(uint16(p[2*c])<<8|uint16(p[2*c+1]))*inv16*a + 1 - a
			}
		}
	case *image.Paletted:
		src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:w]
		for x, i := range src {
			if int(i) >= len(m.Palette) { // a hostile file: show black rather than panic
				dst[3*x], dst[3*x+1], dst[3*x+2] = 0, 0, 0
				continue
			}
			copy(dst[3*x:3*x+3], r.palette[3*int(i):])
		}
	case *FloatImage: // samples as stored: no clamping, no scaling
		c := m.Channels
		src := m.Pix[((b.Min.Y+y)*m.W+b.Min.X)*c:][:w*c]
		if c == r.channels {
			for i, v := range src {
				dst[i] = float64(v)
			}
			return
		}
		for x := 0; x < w; x++ { // 2 or 4+ channels: take the first three (or grey)
			for k := 0; k < 3; k++ {
				dst[3*x+k] = float64(src[x*c+min(k, c-1)])
			}
		}
	default:
		for x := 0; x < w; x++ {
			cr, cg, cb, ca := r.img.At(b.Min.X+x, b.Min.Y+y).RGBA() // premultiplied
			white := 1 - float64(ca)*inv16
			dst[3*x] = float64(cr)*inv16 + white
			dst[3*x+1] = float64(cg)*inv16 + white
			dst[3*x+2] = float64(cb)*inv16 + white
		}
	}
}

// readYCbCr converts one row of JPEG/WebP pixels with the JFIF formulas in 16.16 fixed
// point, rounding to nearest as libjpeg does. color.YCbCrToRGB truncates instead, which
// makes many of a photo's bytes one lower than MATLAB/Octave read them and moves the
// reference objectives. alpha, when not nil, is the row's non-premultiplied alpha
// (WebP).
func readYCbCr(m *image.YCbCr, alpha []uint8, b image.Rectangle, y int, dst []float64) {
	w := b.Dx()
	py := b.Min.Y + y
	yRow := m.Y[(py-m.Rect.Min.Y)*m.YStride+(b.Min.X-m.Rect.Min.X):][:w]
	// Chroma subsampling: 4:4:4 has one chroma sample per pixel, 4:2:2 one per two
	// columns, 4:2:0 one per 2×2 block, and so on (see image.YCbCr.COffset).
	var hs, vs uint
	switch m.SubsampleRatio {
	case image.YCbCrSubsampleRatio422:
		hs = 1
	case image.YCbCrSubsampleRatio420:
		hs, vs = 1, 1
	case image.YCbCrSubsampleRatio440:
		vs = 1
	case image.YCbCrSubsampleRatio411:
		hs = 2
	case image.YCbCrSubsampleRatio410:
		hs, vs = 2, 1
	}
	cRow := (py>>vs - m.Rect.Min.Y>>vs) * m.CStride
	cx0 := m.Rect.Min.X >> hs
	cbRow, crRow := m.Cb[cRow:], m.Cr[cRow:]
	for x, yy := range yRow {
		ci := (b.Min.X+x)>>hs - cx0
		yy1 := int32(yy)<<16 + 1<<15
		cb1 := int32(cbRow[ci]) - 128
		cr1 := int32(crRow[ci]) - 128
		rr := clamp16(yy1 + 91881*cr1)
		gg := clamp16(yy1 - 22554*cb1 - 46802*cr1)
		bb := clamp16(yy1 + 116130*cb1)
		d := dst[3*x : 3*x+3 : 3*x+3]
		if alpha != nil && alpha[x] != 0xff {
			a := unit8LUT[alpha[x]]
			d[0] = unit8LUT[rr]*a + 1 - a
			d[1] = unit8LUT[gg]*a + 1 - a
			d[2] = unit8LUT[bb]*a + 1 - a
			continue
		}
		d[0] = unit8LUT[rr]
		d[1] = unit8LUT[gg]
		d[2] = unit8LUT[bb]
	}
}

// clamp16 takes a 16.16 fixed-point colour value to a byte, clamping to [0, 255].
func clamp16(v int32) uint8 {
	if uint32(v)&0xff000000 == 0 {
		return uint8(v >> 16)
	}
	return uint8(^(v >> 31))
}

// toVector writes img's pixels into dst (len W·H·channels, channels 1 or 3) in the
// layout v[(y*W+x)*channels+c].
func toVector(img image.Image, channels int, dst []float64) {
	r := newRowReader(img)
	w, h := r.b.Dx(), r.b.Dy()
	if r.channels == channels {
		for y := 0; y < h; y++ {
			r.read(y, dst[y*w*channels:(y+1)*w*channels])
		}
		return
	}
	buf := make([]float64, w*r.channels)
	for y := 0; y < h; y++ {
		r.read(y, buf)
		out := dst[y*w*channels : (y+1)*w*channels]
		if channels == 1 {
			for x := range out {
				out[x] = luma(buf[3*x], buf[3*x+1], buf[3*x+2])
			}
			continue
		}
		for x, v := range buf {
			out[3*x], out[3*x+1], out[3*x+2] = v, v, v
		}
	}
}

// luma is the ITU-R BT.601 grey value; grey input stays exactly as it is (the three
// weights do not sum to exactly 1 in floating point).
func luma(r, g, b float64) float64 {
	if r == g && g == b {
		return r
	}
	return lumaR*r + lumaG*g + lumaB*b
}

// isColour reports whether any pixel of img, as loaded, has channels that differ: a grey
// picture stored as RGB (or as a colour JPEG) counts as grey.
func isColour(img image.Image) bool {
	r := newRowReader(img)
	if r.channels == 1 {
		return false
	}
	buf := make([]float64, r.b.Dx()*3)
	for y := 0; y < r.b.Dy(); y++ {
		r.read(y, buf)
		for x := 0; x < len(buf); x += 3 {
			if buf[x] != buf[x+1] || buf[x+1] != buf[x+2] {
				return true
			}
		}
	}
	return false
}
