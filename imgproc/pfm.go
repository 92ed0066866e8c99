package imgproc

// PFM, the portable float map: "PF" (3 channels) or "Pf" (grey), width, height, then a
// scale whose sign gives the byte order (negative: little-endian) and whose magnitude is
// informational only; then float32 samples, rows stored bottom to top. The loader keeps
// PFM samples exactly as stored, negative or above 1 included, because synthetic data
// sets (the 'tetris' sample: x = Σ c_j f_j + noise) must reach the algorithms unclamped.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
)

func init() {
	image.RegisterFormat("pfm", "PF", decodePFM, decodePFMConfig)
	image.RegisterFormat("pfm", "Pf", decodePFM, decodePFMConfig)
}

// FloatImage is an image of float32 samples, W×H pixels of Channels (1 or 3) samples each,
// stored top to bottom as Pix[(y*W+x)*Channels+c]. Samples are not limited to [0, 1]; At
// clamps them for display only.
type FloatImage struct {
	Pix      []float32
	W, H     int
	Channels int
}

// NewFloatImage returns a zeroed w×h image with channels (1 or 3) samples per pixel.
func NewFloatImage(w, h, channels int) *FloatImage {
	return &FloatImage{Pix: make([]float32, w*h*channels), W: w, H: h, Channels: channels}
}

// Bounds implements image.Image.
func (m *FloatImage) Bounds() image.Rectangle { return image.Rect(0, 0, m.W, m.H) }

// ColorModel implements image.Image.
func (m *FloatImage) ColorModel() color.Model {
	if m.Channels == 1 {
		return color.Gray16Model
	}
	return color.RGBA64Model
}

// At implements image.Image with samples clamped to [0, 1].
func (m *FloatImage) At(x, y int) color.Color {
	if x < 0 || y < 0 || x >= m.W || y >= m.H || m.Channels < 1 {
		return color.RGBA64{}
	}
	i := (y*m.W + x) * m.Channels
	if i+m.Channels > len(m.Pix) {
		return color.RGBA64{}
	}
	if m.Channels < 3 {
		return color.Gray16{Y: unit16(m.Pix[i])}
	}
	return color.RGBA64{R: unit16(m.Pix[i]), G: unit16(m.Pix[i+1]), B: unit16(m.Pix[i+2]), A: 0xffff}
}

// unit16 maps [0, 1] to [0, 65535], clamping (NaN counts as 0).
func unit16(v float32) uint16 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 0xffff
	}
	return uint16(v*0xffff + 0.5)
}

type pfmHeader struct {
	width, height, channels int
	order                   binary.ByteOrder
}

func readPFMHeader(r *bufio.Reader) (pfmHeader, error) {
	var h pfmHeader
	var magic [2]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return h, err
	}
	switch string(magic[:]) {
	case "PF":
		h.channels = 3
	case "Pf":
		h.channels = 1
	default:
		return h, errors.New("pfm: not a PFM file")
	}
	var err error
	if h.width, err = readPNMInt(r, "width"); err != nil {
		return h, err
	}
	if h.height, err = readPNMInt(r, "height"); err != nil {
		return h, err
	}
	if h.width <= 0 || h.height <= 0 {
		return h, fmt.Errorf("pfm: bad size %d×%d", h.width, h.height)
	}
	// The scale token ends with exactly one whitespace byte, which readPNMToken consumes;
	// the samples start right after it.
	tok, err := readPNMToken(r)
	if err != nil {
		return h, fmt.Errorf("pfm: reading scale: %w", err)
	}
	scale, err := strconv.ParseFloat(tok, 64)
	if err != nil || scale == 0 || math.IsNaN(scale) || math.IsInf(scale, 0) {
		return h, fmt.Errorf("pfm: bad scale %q", tok)
	}
	h.order = binary.BigEndian
	if scale < 0 {
		h.order = binary.LittleEndian
	}
	return h, nil
}

func decodePFMConfig(r io.Reader) (image.Config, error) {
	h, err := readPFMHeader(bufio.NewReader(r))
	if err != nil {
		return image.Config{}, err
	}
	model := color.RGBA64Model
	if h.channels == 1 {
		model = color.Gray16Model
	}
	return image.Config{ColorModel: model, Width: h.width, Height: h.height}, nil
}

// decodePFM returns a *FloatImage. Non-finite samples are an error: they would turn into
// NaN results downstream.
func decodePFM(r io.Reader) (image.Image, error) {
	br := bufio.NewReader(r)
	h, err := readPFMHeader(br)
	if err != nil {
		return nil, err
	}
	n := int64(h.width) * int64(h.height) * int64(h.channels)
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("pfm: %d×%d image too large", h.width, h.height)
	}
	raw, err := readExactly(br, 4*n)
	if err != nil {
		return nil, err
	}
	img := NewFloatImage(h.width, h.height, h.channels)
	row := h.width * h.channels
	for y := 0; y < h.height; y++ {
		src := raw[4*(h.height-1-y)*row:] // bottom row first in the file
		dst := img.Pix[y*row : (y+1)*row]
		for i := range dst {
			v := math.Float32frombits(h.order.Uint32(src[4*i:]))
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("pfm: non-finite sample at (%d, %d)", i/h.channels, y)
			}
			dst[i] = v
		}
	}
	return img, nil
}

// EncodePFM writes img as a little-endian PFM ("Pf" for 1 channel, "PF" for 3), rows bottom
// to top as the format requires. Samples are written exactly; non-finite ones are an error.
func EncodePFM(w io.Writer, img *FloatImage) error {
	if img == nil {
		return errors.New("pfm: nil image")
	}
	if img.W <= 0 || img.H <= 0 {
		return fmt.Errorf("pfm: bad size %d×%d", img.W, img.H)
	}
	magic := "PF"
	switch img.Channels {
	case 1:
		magic = "Pf"
	case 3:
	default:
		return fmt.Errorf("pfm: channels must be 1 or 3, got %d", img.Channels)
	}
	row := img.W * img.Channels
	if len(img.Pix) != row*img.H {
		return fmt.Errorf("pfm: %d samples for a %d×%d×%d image", len(img.Pix), img.W, img.H, img.Channels)
	}
	for i, v := range img.Pix {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("pfm: non-finite sample %v at index %d", v, i)
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\n%d %d\n-1.0\n", magic, img.W, img.H)
	buf := make([]byte, 4*row)
	for y := img.H - 1; y >= 0; y-- {
		for i, v := range img.Pix[y*row : (y+1)*row] {
			binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
		}
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
