package imgproc

import (
	"image"
	"image/color"
	"math"
	"testing"
)

func TestDiverging(t *testing.T) {
	white := color.NRGBA{255, 255, 255, 255}
	red := color.NRGBA{178, 24, 43, 255}
	blue := color.NRGBA{33, 102, 172, 255}
	tests := []struct {
		name    string
		v       []float64
		w, h, c int
		want    []color.NRGBA
	}{
		{"symmetric around zero", []float64{-2, 0, 2}, 3, 1, 1, []color.NRGBA{blue, white, red}},
		{"scaled by the largest magnitude", []float64{-4, 2}, 2, 1, 1, []color.NRGBA{blue, {217, 140, 149, 255}}},
		{"channels averaged", []float64{1, 1, 1, -1, 0, 1}, 2, 1, 3, []color.NRGBA{red, white}},
		{"all zero is white", []float64{0, 0}, 2, 1, 1, []color.NRGBA{white, white}},
		{"NaN counts as zero", []float64{math.NaN(), 1}, 2, 1, 1, []color.NRGBA{white, red}},
		{"infinity saturates", []float64{math.Inf(1), 1, math.Inf(-1)}, 3, 1, 1, []color.NRGBA{red, white, blue}},
		{"short vector", []float64{1}, 2, 1, 1, []color.NRGBA{red, white}},
	}
	for _, tt := range tests {
		img := Diverging(tt.v, tt.w, tt.h, tt.c).(*image.NRGBA)
		for i, want := range tt.want {
			if got := img.NRGBAAt(i, 0); got != want {
				t.Errorf("%s: pixel %d = %v, want %v", tt.name, i, got, want)
			}
		}
	}
}
