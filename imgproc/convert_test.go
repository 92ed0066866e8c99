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
