package segment

import "math"

// CIE constants of the L*a*b* conversion (CIE 15:2004, exact rational forms).
const (
	labEpsilon = 216.0 / 24389.0 // (6/29)³: below it f is linear
	labKappa   = 24389.0 / 27.0  // (29/3)³: slope of the linear part, times 116
)

// sRGB primaries → CIE XYZ, D65 white (IEC 61966-2-1).
var srgbToXYZ = [3][3]float64{
	{0.4124564, 0.3575761, 0.1804375},
	{0.2126729, 0.7151522, 0.0721750},
	{0.0193339, 0.1191920, 0.9503041},
}

// d65 is the reference white: the XYZ of sRGB (1, 1, 1), so white maps to exactly
// L* = 100, a* = b* = 0.
var d65 = [3]float64{
	srgbToXYZ[0][0] + srgbToXYZ[0][1] + srgbToXYZ[0][2],
	srgbToXYZ[1][0] + srgbToXYZ[1][1] + srgbToXYZ[1][2],
	srgbToXYZ[2][0] + srgbToXYZ[2][1] + srgbToXYZ[2][2],
}

// srgbToLinear undoes the sRGB transfer curve of one channel value in [0, 1].
func srgbToLinear(v float64) float64 {
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// labF is the CIE L*a*b* companding function, linear near 0 so its slope stays finite.
func labF(t float64) float64 {
	if t > labEpsilon {
		return math.Cbrt(t)
	}
	return (labKappa*t + 16) / 116
}

// SRGBToLab converts an sRGB colour with channels in [0, 1] to CIE L*a*b* (D65 white):
// sRGB → linear by the piecewise sRGB curve, → XYZ by the D65 matrix, → L*a*b* with the
// CIE ε/κ piecewise cube root.
func SRGBToLab(r, g, b float64) (l, a, bb float64) {
	rl, gl, bl := srgbToLinear(r), srgbToLinear(g), srgbToLinear(b)
	x := (srgbToXYZ[0][0]*rl + srgbToXYZ[0][1]*gl + srgbToXYZ[0][2]*bl) / d65[0]
	y := (srgbToXYZ[1][0]*rl + srgbToXYZ[1][1]*gl + srgbToXYZ[1][2]*bl) / d65[1]
	z := (srgbToXYZ[2][0]*rl + srgbToXYZ[2][1]*gl + srgbToXYZ[2][2]*bl) / d65[2]
	fx, fy, fz := labF(x), labF(y), labF(z)
	return 116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)
}
