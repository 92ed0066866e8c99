package imgproc

import (
	"image"
	"image/color"
	"testing"
)

func TestJPEGOrientation(t *testing.T) {
	jpg := encodeJPEG(t, photo(0))
	little := []byte("Exif\x00\x00II*\x00\x08\x00\x00\x00\x02\x00" +
		"\x0f\x01\x02\x00\x04\x00\x00\x00abc\x00" + // Make, skipped
		"\x12\x01\x03\x00\x01\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00")
	withSegment := func(seg []byte) []byte {
		out := append([]byte{}, jpg[:2]...)
		out = append(out, 0xff, 0xe1, byte((len(seg)+2)>>8), byte(len(seg)+2))
		out = append(out, seg...)
		return append(out, jpg[2:]...)
	}
	tests := []struct {
		name string
		data []byte
		want int
	}{
		{"none", jpg, 1},
		{"big-endian 6", withOrientation(jpg, 6), 6},
		{"big-endian 3", withOrientation(jpg, 3), 3},
		{"little-endian 8 after another tag", withSegment(little), 8},
		{"out of range value", withOrientation(jpg, 9), 1},
		{"XMP, not Exif", withSegment([]byte("http://ns.adobe.com/xap/1.0/\x00<x/>")), 1},
		{"segment longer than the data", withOrientation(jpg, 6)[:30], 1},
		{"IFD offset past the end", withSegment([]byte("Exif\x00\x00MM\x00*\xff\xff\xff\xf0")), 1},
		{"entry count past the end", withSegment([]byte("Exif\x00\x00MM\x00*\x00\x00\x00\x08\xff\xff")), 1},
		{"not a JPEG", []byte("\x89PNG\r\n\x1a\n"), 1},
		{"empty", nil, 1},
	}
	for _, tt := range tests {
		if got := jpegOrientation(tt.data); got != tt.want {
			t.Errorf("%s: orientation %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestApplyOrientation checks every EXIF orientation against its definition: where the
// stored pixel (x, y) of a W×H picture is displayed.
func TestApplyOrientation(t *testing.T) {
	const w, h = 3, 2
	src := image.NewGray(image.Rect(0, 0, w, h))
	for i := range src.Pix {
		src.Pix[i] = uint8(10 * (i + 1))
	}
	display := map[int]func(x, y int) (int, int){
		1: func(x, y int) (int, int) { return x, y },
		2: func(x, y int) (int, int) { return w - 1 - x, y },
		3: func(x, y int) (int, int) { return w - 1 - x, h - 1 - y },
		4: func(x, y int) (int, int) { return x, h - 1 - y },
		5: func(x, y int) (int, int) { return y, x },
		6: func(x, y int) (int, int) { return h - 1 - y, x },
		7: func(x, y int) (int, int) { return h - 1 - y, w - 1 - x },
		8: func(x, y int) (int, int) { return y, w - 1 - x },
	}
	for o := 1; o <= 8; o++ {
		got := applyOrientation(src, o)
		wantSize := image.Pt(w, h)
		if o >= 5 {
			wantSize = image.Pt(h, w)
		}
		if got.Bounds().Size() != wantSize {
			t.Fatalf("orientation %d: size %v, want %v", o, got.Bounds().Size(), wantSize)
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				dx, dy := display[o](x, y)
				if g := color.GrayModel.Convert(got.At(dx, dy)).(color.Gray).Y; g != src.GrayAt(x, y).Y {
					t.Fatalf("orientation %d: stored (%d,%d) shows %d at (%d,%d), want %d", o, x, y, g, dx, dy, src.GrayAt(x, y).Y)
				}
			}
		}
	}
}
