package imgproc

import (
	"image"

	"github.com/disintegration/imaging"
)

// boxResize is imaging.Resize(src, w, h, imaging.Box), to the byte: the load's shrink.
func boxResize(src image.Image, w, h int) *image.NRGBA { return Resize(src, w, h, imaging.Box) }

// Resize is imaging.Resize(src, w, h, filter), to the byte. For an opaque NRGBA picture
// (a photo as libjpeg-turbo decodes it, the pictures Feature Lab draws) every tap of an
// output pixel weighs its alpha, 255, times the filter's weight, so each output
// position's alpha sum and its inverse are the same on every row (or column): computed
// once here, the passes are imaging's products and sums in its order without its
// division per pixel, in C, in vector lanes (BenchmarkShrinkCamera: 3× imaging on the
// load's shrink). Anything else, nearest-neighbour resizing, or a build without the C
// passes, goes to imaging.
func Resize(src image.Image, w, h int, filter imaging.ResampleFilter) *image.NRGBA {
	m, ok := src.(*image.NRGBA)
	b := src.Bounds()
	if !haveOpaqueResize || !ok || filter.Support <= 0 || b.Min != (image.Point{}) || w <= 0 || h <= 0 ||
		b.Dx() <= 0 || b.Dy() <= 0 || w == b.Dx() && h == b.Dy() || !m.Opaque() {
		return imaging.Resize(src, w, h, filter)
	}
	if w != b.Dx() {
		ws, ok := opaqueWeightsFor(w, b.Dx(), filter)
		if !ok {
			return imaging.Resize(src, w, h, filter)
		}
		dst := image.NewNRGBA(image.Rect(0, 0, w, b.Dy()))
		opaqueRows(m, dst, ws)
		m = dst
		if !ws.allOpaque {
			// imaging resizes the columns of the picture its rows' pass made, whatever it is.
			return imaging.Resize(m, w, h, filter)
		}
	}
	if h != b.Dy() {
		ws, ok := opaqueWeightsFor(h, b.Dy(), filter)
		if !ok {
			return imaging.Resize(m, w, h, filter)
		}
		dst := image.NewNRGBA(image.Rect(0, 0, w, h))
		opaqueCols(m, dst, ws)
		m = dst
	}
	return m
}

// opaqueWeights are the taps of each output pixel of a resize along one side, for an
// opaque picture: output o reads source pixels index[t], t in [starts[o], starts[o+1]),
// each weighing aw[t] = 255·weight; inv[o] is 1 over their sum and alpha[o] its clamp,
// the output's alpha.
type opaqueWeights struct {
	starts    []int32
	index     []int32
	aw, inv   []float64
	alpha     []uint8
	allOpaque bool // every output's alpha is 255
}

// opaqueWeightsFor are imaging's weights (resampleWeights) for resizing srcSize pixels
// to dstSize with filter, as an opaque picture weighs them. ok is false where an
// output's alpha sum is 0 (imaging leaves it transparent).
func opaqueWeightsFor(dstSize, srcSize int, filter imaging.ResampleFilter) (opaqueWeights, bool) {
	out := opaqueWeights{starts: make([]int32, dstSize+1), inv: make([]float64, dstSize), alpha: make([]uint8, dstSize), allOpaque: true}
	for v, taps := range resampleWeights(dstSize, srcSize, filter) {
		var a float64 // imaging's alpha sum for an opaque picture
		for _, t := range taps {
			aw := float64(255) * t.w
			out.index = append(out.index, int32(t.i))
			out.aw = append(out.aw, aw)
			a += aw
		}
		if a == 0 {
			return out, false
		}
		out.inv[v] = 1 / a
		out.alpha[v] = clampByte(a)
		out.allOpaque = out.allOpaque && out.alpha[v] == 255
		out.starts[v+1] = int32(len(out.aw))
	}
	return out, true
}

// padded gives every output the same number of taps, the most any has: an output's own,
// then taps on its last pixel weighing 0, whose +0 leaves its sums as they were (or
// turns a sum of −0 to +0, which rounds to the same byte).
func (w opaqueWeights) padded() (taps int, index []int32, aw []float64) {
	n := len(w.starts) - 1
	for o := range n {
		taps = max(taps, int(w.starts[o+1]-w.starts[o]))
	}
	index, aw = make([]int32, n*taps), make([]float64, n*taps)
	for o := range n {
		t0, t1 := int(w.starts[o]), int(w.starts[o+1])
		copy(index[o*taps:], w.index[t0:t1])
		copy(aw[o*taps:], w.aw[t0:t1])
		for t := o*taps + t1 - t0; t < (o+1)*taps; t++ {
			index[t] = w.index[t1-1]
		}
	}
	return taps, index, aw
}

// clampByte is imaging's clamp of a channel's value: x + 0.5 truncated, kept in [0, 255].
func clampByte(x float64) uint8 {
	v := int64(x + 0.5)
	if v > 255 {
		return 255
	}
	if v > 0 {
		return uint8(v)
	}
	return 0
}
