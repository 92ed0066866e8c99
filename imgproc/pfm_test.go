package imgproc

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"
)

func TestPFMRoundTrip(t *testing.T) {
	for _, m := range []*FloatImage{
		{W: 3, H: 2, Channels: 1, Pix: []float32{-1.5, 0, 0.25, 7, -0.001, 1e-30}},
		{W: 2, H: 2, Channels: 3, Pix: []float32{-1, 2, 0.5, 0.1, 0.2, 0.3, 1, 1, 1, -3e5, 4, 0}},
	} {
		data := pfmBytes(t, m)
		img, format, err := image.Decode(bytes.NewReader(data))
		if err != nil || format != "pfm" {
			t.Fatalf("decode: %v (format %q)", err, format)
		}
		got := img.(*FloatImage)
		if got.W != m.W || got.H != m.H || got.Channels != m.Channels {
			t.Fatalf("decoded %d×%d×%d, want %d×%d×%d", got.W, got.H, got.Channels, m.W, m.H, m.Channels)
		}
		for i := range m.Pix {
			if got.Pix[i] != m.Pix[i] {
				t.Fatalf("sample %d = %v, want %v", i, got.Pix[i], m.Pix[i])
			}
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width != m.W || cfg.Height != m.H {
			t.Fatalf("config %+v, %v", cfg, err)
		}
	}
}

// TestPFMBigEndianBottomUp decodes a hand-made big-endian file (positive scale) whose rows
// are stored bottom to top, with the size split over two lines.
func TestPFMBigEndianBottomUp(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("Pf\n2\n2\n1.0\n")
	for _, v := range []float32{3, 4, 1, 2} { // bottom row (3 4) first
		binary.Write(&b, binary.BigEndian, v)
	}
	img, err := decodePFM(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.(*FloatImage).Pix; !equalFloat32(got, []float32{1, 2, 3, 4}) {
		t.Errorf("pixels %v, want [1 2 3 4] top to bottom", got)
	}
}

func equalFloat32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPFMErrors(t *testing.T) {
	nan := func() string {
		var b bytes.Buffer
		b.WriteString("Pf\n1 1\n-1.0\n")
		binary.Write(&b, binary.LittleEndian, float32(math.NaN()))
		return b.String()
	}()
	tests := []struct{ name, data, want string }{
		{"truncated", "Pf\n2 2\n-1.0\n\x00\x00\x00\x00", "unexpected EOF"},
		{"zero scale", "Pf\n1 1\n0\n\x00\x00\x00\x00", "bad scale"},
		{"bad scale", "Pf\n1 1\nabc\n\x00\x00\x00\x00", "bad scale"},
		{"zero width", "Pf\n0 1\n-1\n", "bad size"},
		{"negative size", "PF\n-1 1\n-1\n", "bad width"},
		{"huge", "PF\n1000000000 1000000000\n-1\n", "too large"},
		{"NaN sample", nan, "non-finite"},
		{"not PFM", "P5\n1 1\n255\n\x00", "not a PFM"},
	}
	for _, tt := range tests {
		_, err := decodePFM(strings.NewReader(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestEncodePFMErrors(t *testing.T) {
	tests := []struct {
		name string
		img  *FloatImage
		want string
	}{
		{"nil", nil, "nil image"},
		{"two channels", &FloatImage{W: 1, H: 1, Channels: 2, Pix: []float32{0, 0}}, "channels must be 1 or 3"},
		{"short", &FloatImage{W: 2, H: 1, Channels: 1, Pix: []float32{0}}, "1 samples for a 2×1×1 image"},
		{"empty", &FloatImage{Channels: 1}, "bad size"},
		{"infinite", &FloatImage{W: 1, H: 1, Channels: 1, Pix: []float32{float32(math.Inf(1))}}, "non-finite"},
	}
	for _, tt := range tests {
		err := EncodePFM(&bytes.Buffer{}, tt.img)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestFloatImageAtClamps(t *testing.T) {
	m := &FloatImage{W: 3, H: 1, Channels: 3, Pix: []float32{-1, 0.5, 2, 0, 0, 0, 1, 1, 1}}
	if c := m.At(0, 0).(color.RGBA64); c.R != 0 || c.G != 0x8000 || c.B != 0xffff || c.A != 0xffff {
		t.Errorf("At(0,0) = %v, want clamped {0 0x8000 0xffff 0xffff}", c)
	}
	if c := m.At(5, 0); c != (color.RGBA64{}) {
		t.Errorf("At outside = %v, want zero", c)
	}
	g := &FloatImage{W: 1, H: 1, Channels: 1, Pix: []float32{0.25}}
	if c := g.At(0, 0).(color.Gray16); c.Y != 0x4000 {
		t.Errorf("grey At = %v", c)
	}
}

// FuzzDecodePFM: no input may panic the decoder or yield a non-finite sample.
func FuzzDecodePFM(f *testing.F) {
	f.Add([]byte("Pf\n1 1\n-1.0\n\x00\x00\x80\x3f"))
	f.Add([]byte("PF\n1 1\n1\n\x3f\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("Pf\n# c\n2 1\n-1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := decodePFM(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, v := range img.(*FloatImage).Pix {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("non-finite sample %v", v)
			}
		}
	})
}
