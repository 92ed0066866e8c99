package learn

import "math"

// SqDist returns ‖a − b‖². Four accumulators break the add dependency chain; the
// four-element windows let the compiler drop the bounds checks. It is the one squared
// distance of the clustering learners and the farthest-first λ², so every learner that
// compares distances rounds them alike.
func SqDist(a, b []float64) float64 { return SqDistBounded(a, b, noBound) }

// noBound is +Inf, SqDist's bound: a variable, not math.Inf(1), so that SqDist is small
// enough for the compiler to inline, and a caller pays for one call, not two.
var noBound = math.Inf(1)

// SqDistBounded returns ‖a − b‖², or +Inf as soon as a partial sum shows the distance is
// at least bound. It checks after every 16 coordinates, so the early exit costs little,
// and it adds in the same order as SqDist, so a value it returns equals SqDist's to the bit.
func SqDistBounded(a, b []float64, bound float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+16 <= len(a); j += 16 {
		x, y := a[j:j+16:j+16], b[j:j+16:j+16]
		for q := 0; q < 16; q += 4 {
			d0, d1, d2, d3 := x[q]-y[q], x[q+1]-y[q+1], x[q+2]-y[q+2], x[q+3]-y[q+3]
			s0 += d0 * d0
			s1 += d1 * d1
			s2 += d2 * d2
			s3 += d3 * d3
		}
		if (s0+s1)+(s2+s3) >= bound {
			return math.Inf(1)
		}
	}
	for ; j+4 <= len(a); j += 4 {
		x, y := a[j:j+4:j+4], b[j:j+4:j+4]
		d0, d1, d2, d3 := x[0]-y[0], x[1]-y[1], x[2]-y[2], x[3]-y[3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; j < len(a); j++ {
		dj := a[j] - b[j]
		s0 += dj * dj
	}
	return (s0 + s1) + (s2 + s3)
}
