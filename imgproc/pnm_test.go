package imgproc

import (
	"bytes"
	"image"
	"strings"
	"testing"
)

func TestDecodePNM(t *testing.T) {
	tests := []struct {
		name, data string
		want       []float64 // ImageToVector, grey
		colour     bool
	}{
		{"plain PBM (1 is black)", "P1\n3 1\n1 0 1\n", []float64{0, 1, 0}, false},
		{"raw PBM", "P4\n3 1\n\xa0", []float64{0, 1, 0}, false},
		{"plain PGM, maxval 15", "P2\n2 1\n15\n0 15\n", []float64{0, 1}, false},
		{"raw PGM with comments", "P5\n# one\n2 # two\n1\n255\n\x00\xff", []float64{0, 1}, false},
		{"raw PGM, first sample '#'", "P5\n2 1\n255\n#\x00", []float64{35.0 / 255, 0}, false},
		{"16-bit PGM", "P5\n1 1\n65535\n\xff\xff", []float64{1}, false},
		{"plain PPM", "P3\n1 1\n255\n255 255 255\n", []float64{1}, true},
		{"raw PPM", "P6\n1 1\n255\n\x00\x00\x00", []float64{0}, true},
	}
	for _, tt := range tests {
		img, format, err := image.Decode(strings.NewReader(tt.data))
		if err != nil || format != "pnm" {
			t.Errorf("%s: %v (format %q)", tt.name, err, format)
			continue
		}
		got := ImageToVector(img, true)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if d := got[i] - tt.want[i]; d > 1e-9 || d < -1e-9 {
				t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
				break
			}
		}
		if c := newRowReader(img).channels == 3; c != tt.colour {
			t.Errorf("%s: colour %v, want %v", tt.name, c, tt.colour)
		}
	}
}

func TestDecodePNMErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"truncated raw", "P5\n4 4\n255\n\x00\x00", "unexpected EOF"},
		{"sample over maxval", "P2\n1 1\n10\n11\n", "exceeds maxval"},
		{"maxval 0", "P5\n1 1\n0\n\x00", "maxval 0 out of range"},
		{"huge", "P5\n1000000000 1000000000\n255\n", "too large"},
		{"zero size", "P5\n0 1\n255\n", "bad size"},
	}
	for _, tt := range tests {
		_, err := decodePNM(strings.NewReader(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}

// FuzzDecodePNM: no input may panic the decoder.
func FuzzDecodePNM(f *testing.F) {
	for _, s := range []string{"P1\n2 1\n0 1\n", "P4\n9 1\n\xff\x80", "P5\n1 1\n65535\n\x01\x02", "P6\n1 1\n255\n\x01\x02\x03", "P3\n1 1\n1\n1 0 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := decodePNM(bytes.NewReader(data))
		if err == nil {
			ImageToVector(img, false)
		}
	})
}
