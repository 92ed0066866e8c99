package samplegen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// EncodePFM writes a grey image as a netpbm portable float map: the header
// "Pf\n<w> <h>\n-1.0\n" (the negative scale means little-endian) and then w·h float32
// samples, rows from the bottom of the image to the top. pix is row-major, top row
// first. The format is lossless for float32 values, negative ones included.
func EncodePFM(pix []float32, w, h int) ([]byte, error) {
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("pfm: size must be positive, got %d×%d", w, h)
	}
	if len(pix) != w*h {
		return nil, fmt.Errorf("pfm: %d samples for a %d×%d image, want %d", len(pix), w, h, w*h)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Pf\n%d %d\n-1.0\n", w, h)
	row := make([]byte, 4*w)
	for y := h - 1; y >= 0; y-- {
		for x, v := range pix[y*w : y*w+w] {
			binary.LittleEndian.PutUint32(row[4*x:], math.Float32bits(v))
		}
		buf.Write(row)
	}
	return buf.Bytes(), nil
}
