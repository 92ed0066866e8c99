package cosegment

import (
	"image"
	"image/color"
)

// MeanColour is global cluster g's mean colour.
func (r *Result) MeanColour(g int) color.NRGBA {
	m := r.Means[g]
	to8 := func(v float64) uint8 { return uint8(min(max(v, 0), 1)*255 + 0.5) }
	return color.NRGBA{to8(m[0]), to8(m[1]), to8(m[2]), 255}
}

// LabelImage is image i's label map as 16-bit grey: pixel value = global cluster.
func (r *Result) LabelImage(i int) *image.Gray16 {
	size := r.Sizes[i]
	img := image.NewGray16(image.Rect(0, 0, size.X, size.Y))
	for n, g := range r.Labels(i) {
		img.SetGray16(n%size.X, n/size.X, color.Gray16{Y: uint16(g)})
	}
	return img
}

// SegmentsImage is image i with every pixel in its global cluster's mean colour.
func (r *Result) SegmentsImage(i int) *image.NRGBA {
	return r.paint(i, r.MeanColour)
}

// ColourImage is image i with every pixel in colour(g) of its global cluster g.
func (r *Result) ColourImage(i int, colour func(g int) color.NRGBA) *image.NRGBA {
	return r.paint(i, colour)
}

func (r *Result) paint(i int, colour func(g int) color.NRGBA) *image.NRGBA {
	size := r.Sizes[i]
	img := image.NewNRGBA(image.Rect(0, 0, size.X, size.Y))
	for n, g := range r.Labels(i) {
		img.SetNRGBA(n%size.X, n/size.X, colour(int(g)))
	}
	return img
}
