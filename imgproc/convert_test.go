package imgproc

import (
	"image"
	"image/color"
	"math"
	"testing"
)

func TestVectorToImage(t *testing.T) {
	tests := []struct {
		name    string
		v       []float64
		w, h, c int
		want    []color.Color
	}{
		{"grey clamped", []float64{-0.5, 0.5, 2, math.NaN()}, 4, 1, 1,
			[]color.Color{color.Gray{0}, color.Gray{128}, color.Gray{255}, color.Gray{0}}},
		{"rgb", []float64{1, 0, 0, 0.2, 0.4, 0.6}, 2, 1, 3,
			[]color.Color{color.NRGBA{255, 0, 0, 255}, color.NRGBA{51, 102, 153, 255}}},
		{"short vector shows black", []float64{1}, 2, 1, 1, []color.Color{color.Gray{255}, color.Gray{0}}},
		{"two channels: their mean", []float64{0, 1, 1, 1}, 2, 1, 2, []color.Color{color.Gray{128}, color.Gray{255}}},
		{"no channels", nil, 1, 1, 0, []color.Color{color.Gray{0}}},
	}
	for _, tt := range tests {
		img := VectorToImage(tt.v, tt.w, tt.h, tt.c)
		if img.Bounds() != image.Rect(0, 0, tt.w, tt.h) {
			t.Errorf("%s: bounds %v", tt.name, img.Bounds())
			continue
		}
		for i, want := range tt.want {
			if got := img.At(i%tt.w, i/tt.w); got != want {
				t.Errorf("%s: pixel %d = %v, want %v", tt.name, i, got, want)
			}
		}
	}
	if b := VectorToImage(nil, -3, 2, 3).Bounds(); !b.Empty() {
		t.Errorf("negative width gave %v", b)
	}
}

// TestVectorRoundTrip: 8-bit pictures survive ImageToVector then VectorToImage exactly.
func TestVectorRoundTrip(t *testing.T) {
	rgb := photo(2).(*image.NRGBA)
	back := VectorToImage(ImageToVector(rgb, false), 32, 24, 3).(*image.NRGBA)
	for i := range rgb.Pix {
		if rgb.Pix[i] != back.Pix[i] {
			t.Fatalf("rgb byte %d: %d came back as %d", i, rgb.Pix[i], back.Pix[i])
		}
	}
	grey := image.NewGray(image.Rect(0, 0, 16, 16))
	for i := range grey.Pix {
		grey.Pix[i] = uint8(i)
	}
	gback := VectorToImage(ImageToVector(grey, true), 16, 16, 1).(*image.Gray)
	for i := range grey.Pix {
		if grey.Pix[i] != gback.Pix[i] {
			t.Fatalf("grey byte %d: %d came back as %d", i, grey.Pix[i], gback.Pix[i])
		}
	}
}

// TestOnWhite: a transparent picture is composited over white at 16 bits a sample, the
// way the loader and the segmenter read it; an opaque one comes back as it is.
func TestOnWhite(t *testing.T) {
	opaque := image.NewGray(image.Rect(0, 0, 2, 2))
	if got := OnWhite(opaque); got != image.Image(opaque) {
		t.Errorf("an opaque picture was copied")
	}
	card := image.NewNRGBA64(image.Rect(0, 0, 3, 1))
	card.SetNRGBA64(1, 0, color.NRGBA64{R: 0xffff, A: 0x3333}) // red at alpha 0.2
	card.SetNRGBA64(2, 0, color.NRGBA64{G: 0x1234, A: 0xffff}) // opaque, 16-bit dark green
	got := OnWhite(card)
	if o, ok := got.(interface{ Opaque() bool }); !ok || !o.Opaque() {
		t.Fatalf("%T is not opaque", got)
	}
	for _, tc := range []struct {
		x       int
		r, g, b uint32
	}{
		{0, 0xffff, 0xffff, 0xffff}, // transparent: white
		{1, 0xffff, 0xcccc, 0xcccc}, // 0.2·red + 0.8·white
		{2, 0, 0x1234, 0},           // kept at 16 bits
	} {
		r, g, b, _ := got.At(tc.x, 0).RGBA()
		if r != tc.r || g != tc.g || b != tc.b {
			t.Errorf("pixel %d: %#x %#x %#x, want %#x %#x %#x", tc.x, r, g, b, tc.r, tc.g, tc.b)
		}
	}
}
