package report

import (
	"image"
	"math"
	"slices"
	"strings"
	"testing"

	"featurelab/app/pipeline"
)

// TestTrustText: the grid's line under a feature gives the share it explains and its
// stability; SeparationText says "on/off" or "gradual" (a feature whose images do not
// split into those with it and those without), nothing for the base.
func TestTrustText(t *testing.T) {
	signed := image.NewRGBA(image.Rect(0, 0, 1, 1))
	for _, tc := range []struct {
		f                pipeline.Feature
		want, separation string
	}{
		{pipeline.Feature{Signed: signed, Explained: 0.123, Stability: 0.75, Separation: 0.9}, "12.3%, stable 75%", "on/off"},
		{pipeline.Feature{Signed: signed, Explained: 0.05, Stability: -1, Separation: 0.2}, "5.0%", "gradual"},
		{pipeline.Feature{Signed: signed, Explained: 0.05, Stability: 1, Separation: math.NaN()}, "5.0%, stable 100%", ""},
		{pipeline.Feature{Base: true, Stability: 1, Separation: math.NaN()}, "stable 100%", ""},
	} {
		if got := TrustText(tc.f); got != tc.want {
			t.Errorf("TrustText(%+v) = %q, want %q", tc.f, got, tc.want)
		}
		if got := SeparationText(tc.f); got != tc.separation {
			t.Errorf("SeparationText(%+v) = %q, want %q", tc.f, got, tc.separation)
		}
	}
}

// TestCodeLines: a code fits its cell in at most two lines of the grid's 7-pixel font, cut
// short with ".." when longer; a short one stays on one line.
func TestCodeLines(t *testing.T) {
	long := strings.Repeat("01", 78) // 156 features
	for _, tc := range []struct {
		code string
		px   int
		want []string
	}{
		{"10110", 128, []string{"10110"}},
		{long[:30], 128, []string{long[:18], long[18:30]}},
		{long, 105, []string{long[:15], long[15:28] + ".."}},
	} {
		got := codeLines(tc.code, tc.px)
		if !slices.Equal(got, tc.want) {
			t.Errorf("codeLines(%d digits, %d px) = %q, want %q", len(tc.code), tc.px, got, tc.want)
		}
		for _, line := range got {
			if 7*len(line) > tc.px {
				t.Errorf("line %q is %d px, wider than its %d px cell", line, 7*len(line), tc.px)
			}
		}
	}
}
