package imgproc

// Dilate marks every pixel of a w×h grid that lies within radius of a marked pixel of
// in (a square, clamped at the edges): the marks grown by radius pixels each way. It
// counts the marks of every window in two separable passes (windowCounts), so its cost
// does not grow with the radius.
func Dilate(in []bool, w, h, radius int) []bool {
	out := make([]bool, w*h)
	if w <= 0 || h <= 0 {
		return out
	}
	for q, c := range windowCounts(in, w, h, radius, rect{0, 0, w, h}) {
		out[q] = c > 0
	}
	return out
}
