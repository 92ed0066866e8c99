package imgproc

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestColorHistogram(t *testing.T) {
	for _, tc := range []struct {
		row  []float32
		want []float64
	}{
		{[]float32{0.1, 0.9, 0.5, 1}, []float64{0.25, 0.75}}, // bins of ⌊2v⌋ capped at 1: 0, 1, 1, 1
		{[]float32{-0.2, 0, 0.49, 2}, []float64{0.75, 0.25}}, // out-of-range values fall in the end bins: 0, 0, 0, 1
	} {
		h := make([]float64, 2)
		if err := ColorHistogram(tc.row, 1, 2, h); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(h, tc.want) {
			t.Errorf("grey histogram of %v: %v, want %v", tc.row, h, tc.want)
		}
	}

	colour := []float32{
		1, 0, 0, // red: cell (1·2 + 0)·2 + 0 = 4
		0, 0, 1, // blue: cell 1
		0.9, 0.1, 0.2, // reddish: cell 4
	}
	h := make([]float64, 8)
	if err := ColorHistogram(colour, 3, 2, h); err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 1.0 / 3, 0, 0, 2.0 / 3, 0, 0, 0}; !slices.Equal(h, want) {
		t.Errorf("colour histogram %v, want %v", h, want)
	}

	grey := []float32{0.1, 0.9, 0.5, 1}
	for _, tc := range []struct {
		row            []float32
		channels, bins int
		cells          int
		want           string
	}{
		{nil, 1, 4, 4, "no pixels"},
		{grey, 2, 4, 4, "channels must be 1 or 3"},
		{grey, 1, 0, 0, "bins must lie in 1…256"},
		{colour, 3, 33, 8, "bins must lie in 1…32"},
		{grey, 3, 2, 8, "not a whole number"},
		{grey, 1, 2, 3, "h has 3 entries, want 2"},
		{[]float32{0, float32(math.NaN())}, 1, 2, 2, "NaN at value 1"},
	} {
		err := ColorHistogram(tc.row, tc.channels, tc.bins, make([]float64, tc.cells))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want it to mention %q", err, tc.want)
		}
	}
}
