package imgproc

// A netpbm (PBM/PGM/PPM, plain and raw, 8 and 16 bit) decoder of its own, not
// github.com/jbuchbinder/gopnm: that one skips "comments" after the maxval, so a raw PGM
// whose first pixel is 35 ('#') fails to decode, as some of the ORL faces do. The netpbm
// spec allows exactly one whitespace byte there and no comment, which is what this
// decoder reads.

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
)

func init() {
	for _, magic := range []string{"P1", "P2", "P3", "P4", "P5", "P6"} {
		image.RegisterFormat("pnm", magic, decodePNM, decodePNMConfig)
	}
}

type pnmHeader struct {
	magic         byte // '1'…'6'
	width, height int
	maxval        int
}

// readPNMToken returns the next whitespace-delimited header token, skipping '#' comments.
func readPNMToken(r *bufio.Reader) (string, error) {
	var tok []byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			if err == io.EOF && len(tok) > 0 {
				return string(tok), nil
			}
			return "", err
		}
		switch {
		case c == '#' && len(tok) == 0:
			if _, err := r.ReadString('\n'); err != nil {
				return "", err
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			if len(tok) > 0 {
				return string(tok), nil
			}
		default:
			tok = append(tok, c)
			if len(tok) > 32 {
				return "", errors.New("pnm: header token too long")
			}
		}
	}
}

func readPNMInt(r *bufio.Reader, what string) (int, error) {
	tok, err := readPNMToken(r)
	if err != nil {
		return 0, fmt.Errorf("pnm: reading %s: %w", what, err)
	}
	v := 0
	for _, c := range []byte(tok) {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("pnm: bad %s %q", what, tok)
		}
		// Capped so that width·height·channels cannot overflow an int64.
		if v = v*10 + int(c-'0'); v > 1<<30 {
			return 0, fmt.Errorf("pnm: %s %s too large", what, tok)
		}
	}
	return v, nil
}

func readPNMHeader(r *bufio.Reader) (pnmHeader, error) {
	var h pnmHeader
	var magic [2]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return h, err
	}
	if magic[0] != 'P' || magic[1] < '1' || magic[1] > '6' {
		return h, errors.New("pnm: not a netpbm file")
	}
	h.magic = magic[1]
	var err error
	if h.width, err = readPNMInt(r, "width"); err != nil {
		return h, err
	}
	if h.height, err = readPNMInt(r, "height"); err != nil {
		return h, err
	}
	if h.width <= 0 || h.height <= 0 {
		return h, fmt.Errorf("pnm: bad size %d×%d", h.width, h.height)
	}
	h.maxval = 1
	if h.magic != '1' && h.magic != '4' {
		if h.maxval, err = readPNMInt(r, "maxval"); err != nil {
			return h, err
		}
		if h.maxval < 1 || h.maxval > 65535 {
			return h, fmt.Errorf("pnm: maxval %d out of range", h.maxval)
		}
	}
	return h, nil
}

func (h pnmHeader) channels() int {
	if h.magic == '3' || h.magic == '6' {
		return 3
	}
	return 1
}

func decodePNMConfig(r io.Reader) (image.Config, error) {
	h, err := readPNMHeader(bufio.NewReader(r))
	if err != nil {
		return image.Config{}, err
	}
	var model color.Model
	switch {
	case h.channels() == 3 && h.maxval > 255:
		model = color.RGBA64Model
	case h.channels() == 3:
		model = color.RGBAModel
	case h.maxval > 255:
		model = color.Gray16Model
	default:
		model = color.GrayModel
	}
	return image.Config{ColorModel: model, Width: h.width, Height: h.height}, nil
}

// decodePNM decodes into *image.Gray, *image.Gray16, *image.RGBA or *image.RGBA64, with
// samples rescaled from [0, maxval] to the full range of the type.
func decodePNM(r io.Reader) (image.Image, error) {
	br := bufio.NewReader(r)
	h, err := readPNMHeader(br)
	if err != nil {
		return nil, err
	}
	n64 := int64(h.width) * int64(h.height) * int64(h.channels())
	if n64 > math.MaxInt32 {
		return nil, fmt.Errorf("pnm: %d×%d image too large", h.width, h.height)
	}
	n := int(n64)
	// Sample memory grows with the bytes actually read, so a header that lies about the
	// size of a short file cannot make the decoder allocate gigabytes.
	var samples []uint16
	switch h.magic {
	case '1', '2', '3':
		samples = make([]uint16, 0, min(n, 1<<16))
		for range n {
			v, err := readPNMInt(br, "sample")
			if err != nil {
				return nil, err
			}
			if v > h.maxval {
				return nil, fmt.Errorf("pnm: sample %d exceeds maxval %d", v, h.maxval)
			}
			samples = append(samples, uint16(v))
		}
		if h.magic == '1' { // in PBM 1 is black
			for i := range samples {
				samples[i] = 1 - samples[i]
			}
		}
	case '4':
		rowBytes := (h.width + 7) / 8
		buf, err := readExactly(br, int64(rowBytes)*int64(h.height))
		if err != nil {
			return nil, err
		}
		samples = make([]uint16, n)
		for y := 0; y < h.height; y++ {
			row := buf[y*rowBytes : (y+1)*rowBytes]
			for x := 0; x < h.width; x++ {
				bit := row[x/8] >> (7 - uint(x%8)) & 1
				samples[y*h.width+x] = uint16(1 - bit)
			}
		}
	default: // '5', '6': raw samples, one or two bytes each, big-endian
		width := 1
		if h.maxval > 255 {
			width = 2
		}
		buf, err := readExactly(br, int64(n)*int64(width))
		if err != nil {
			return nil, err
		}
		samples = make([]uint16, n)
		for i := range samples {
			if width == 2 {
				samples[i] = uint16(buf[2*i])<<8 | uint16(buf[2*i+1])
			} else {
				samples[i] = uint16(buf[i])
			}
		}
	}
	return pnmImage(h, samples), nil
}

// readExactly reads n bytes, growing the buffer only as data arrives.
func readExactly(r io.Reader, n int64) ([]byte, error) {
	buf, err := io.ReadAll(io.LimitReader(r, n))
	if err != nil {
		return nil, err
	}
	if int64(len(buf)) < n {
		return nil, fmt.Errorf("%w: %d of %d bytes", io.ErrUnexpectedEOF, len(buf), n)
	}
	return buf, nil
}

func pnmImage(h pnmHeader, samples []uint16) image.Image {
	rect := image.Rect(0, 0, h.width, h.height)
	max := uint32(h.maxval)
	scale8 := func(v uint16) uint8 { return uint8((uint32(v)*255 + max/2) / max) }
	scale16 := func(v uint16) uint16 { return uint16((uint32(v)*65535 + max/2) / max) }
	wide := h.maxval > 255
	if h.channels() == 1 {
		if wide {
			img := image.NewGray16(rect)
			for i, v := range samples {
				s := scale16(v)
				img.Pix[2*i], img.Pix[2*i+1] = uint8(s>>8), uint8(s)
			}
			return img
		}
		img := image.NewGray(rect)
		for i, v := range samples {
			img.Pix[i] = scale8(v)
		}
		return img
	}
	if wide {
		img := image.NewRGBA64(rect)
		for i := 0; i < len(samples)/3; i++ {
			for c := 0; c < 3; c++ {
				s := scale16(samples[3*i+c])
				img.Pix[8*i+2*c], img.Pix[8*i+2*c+1] = uint8(s>>8), uint8(s)
			}
			img.Pix[8*i+6], img.Pix[8*i+7] = 0xff, 0xff
		}
		return img
	}
	img := image.NewRGBA(rect)
	for i := 0; i < len(samples)/3; i++ {
		for c := 0; c < 3; c++ {
			img.Pix[4*i+c] = scale8(samples[3*i+c])
		}
		img.Pix[4*i+3] = 0xff
	}
	return img
}
