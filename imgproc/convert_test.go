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

func TestThumbnail(t *testing.T) {
	tests := []struct {
		name      string
		w, h, max int
		want      image.Point
	}{
		{"landscape shrinks", 320, 240, 120, image.Pt(120, 90)},
		{"portrait shrinks", 222, 323, 100, image.Pt(68, 100)},
		{"dice enlarges by a whole factor", 14, 14, 120, image.Pt(112, 112)},
		{"just fits", 120, 60, 120, image.Pt(120, 60)},
		{"zero box", 10, 10, 0, image.Pt(0, 0)},
	}
	for _, tt := range tests {
		got := Thumbnail(imageOfSize(tt.w, tt.h), tt.max).Bounds().Size()
		if got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	// Enlarging keeps pixels crisp: every 8×8 block of a 14×14 picture at 112 is one colour.
	small := imageOfSize(14, 14)
	big := Thumbnail(small, 112)
	if big.At(0, 0) != big.At(7, 7) || big.At(8, 0) != small.At(1, 0) {
		t.Error("enlarged thumbnail is smoothed")
	}
}
