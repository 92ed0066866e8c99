package segment

import (
	"math"
	"testing"
)

func TestSRGBToLab(t *testing.T) {
	// Reference values: Bruce Lindbloom's calculator (sRGB, D65, no adaptation).
	for _, tc := range []struct {
		name    string
		r, g, b float64
		l, a, B float64
	}{
		{"white", 1, 1, 1, 100, 0, 0},
		{"black", 0, 0, 0, 0, 0, 0},
		{"red", 1, 0, 0, 53.2408, 80.0925, 67.2032},
		{"green", 0, 1, 0, 87.7347, -86.1827, 83.1793},
		{"blue", 0, 0, 1, 32.2970, 79.1875, -107.8602},
		{"grey 0.5", 0.5, 0.5, 0.5, 53.3890, 0, 0}, // 116·∛0.214041 − 16
		// Dark enough that Y < ε: the linear branch of f and of the sRGB curve.
		{"dark grey", 0.02, 0.02, 0.02, 1.3983, 0, 0},
	} {
		l, a, b := SRGBToLab(tc.r, tc.g, tc.b)
		if math.Abs(l-tc.l) > 1e-3 || math.Abs(a-tc.a) > 1e-3 || math.Abs(b-tc.B) > 1e-3 {
			t.Errorf("%s: got (%.4f, %.4f, %.4f), want (%.4f, %.4f, %.4f)", tc.name, l, a, b, tc.l, tc.a, tc.B)
		}
	}
}

func TestLabPiecesMeet(t *testing.T) {
	// Both piecewise functions are continuous at their break points.
	if d := math.Abs(labF(labEpsilon*(1+1e-12)) - labF(labEpsilon)); d > 1e-9 {
		t.Errorf("f jumps by %g at ε", d)
	}
	if d := math.Abs(srgbToLinear(0.04045+1e-12) - srgbToLinear(0.04045)); d > 1e-6 {
		t.Errorf("sRGB curve jumps by %g at 0.04045", d)
	}
}
