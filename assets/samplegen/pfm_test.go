package samplegen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// decodePFM reads a grey little-endian PFM as EncodePFM writes it; pixels top row first.
func decodePFM(t *testing.T, data []byte) (pix []float32, w, h int) {
	t.Helper()
	var scale float64
	n, err := fmt.Sscanf(string(data), "Pf\n%d %d\n%g\n", &w, &h, &scale)
	if err != nil || n != 3 || scale != -1 {
		t.Fatalf("pfm header: %v (scale %v)", err, scale)
	}
	header := len(fmt.Sprintf("Pf\n%d %d\n-1.0\n", w, h))
	body := data[header:]
	if len(body) != 4*w*h {
		t.Fatalf("pfm: %d bytes of samples for %d×%d", len(body), w, h)
	}
	pix = make([]float32, w*h)
	for i := range pix {
		row := h - 1 - i/w // stored bottom row first
		pix[row*w+i%w] = math.Float32frombits(binary.LittleEndian.Uint32(body[4*i:]))
	}
	return pix, w, h
}

func TestEncodePFM(t *testing.T) {
	// A 2×2 image, top row (1, -2), bottom row (0.5, 3): the file holds the bottom row first.
	got, err := EncodePFM([]float32{1, -2, 0.5, 3}, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte("Pf\n2 2\n-1.0\n")
	for _, v := range []float32{0.5, 3, 1, -2} {
		want = binary.LittleEndian.AppendUint32(want, math.Float32bits(v))
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("got % x\nwant % x", got, want)
	}
	pix, w, h := decodePFM(t, got)
	if w != 2 || h != 2 || pix[0] != 1 || pix[1] != -2 || pix[2] != 0.5 || pix[3] != 3 {
		t.Fatalf("round trip: %v %d×%d", pix, w, h)
	}
}

func TestEncodePFMErrors(t *testing.T) {
	tests := []struct {
		pix  []float32
		w, h int
	}{
		{nil, 0, 1},
		{[]float32{1}, 1, -1},
		{[]float32{1, 2, 3}, 2, 2},
	}
	for _, tt := range tests {
		if _, err := EncodePFM(tt.pix, tt.w, tt.h); err == nil {
			t.Errorf("EncodePFM(%d samples, %d, %d): no error", len(tt.pix), tt.w, tt.h)
		}
	}
}
