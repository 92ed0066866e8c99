package segment

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// ColorImage paints every segment in its mean colour.
func (r *Result) ColorImage() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, r.Width, r.Height))
	pal := make([]color.RGBA, len(r.Means))
	for i, m := range r.Means {
		pal[i] = color.RGBA{to8(m[0]), to8(m[1]), to8(m[2]), 255}
	}
	for n, l := range r.Labels {
		c := pal[l]
		i := img.PixOffset(n%r.Width, n/r.Width)
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// LabelImage returns the label map as a 16-bit grey image: pixel value = label.
func (r *Result) LabelImage() *image.Gray16 {
	img := image.NewGray16(image.Rect(0, 0, r.Width, r.Height))
	for n, l := range r.Labels {
		img.SetGray16(n%r.Width, n/r.Width, color.Gray16{Y: uint16(l)})
	}
	return img
}

// boundaryColours are the colours BoundaryImage chooses from.
var boundaryColours = []color.RGBA{
	{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255},
	{0, 255, 255, 255}, {255, 0, 255, 255}, {0, 0, 0, 255}, {255, 255, 255, 255},
}

// BoundaryImage draws img (composited on white) with the segment boundaries of r
// overlaid as lines: a pixel is on a boundary when its right or lower neighbour has
// another label. Lines are 1 pixel wide up to 1 199 pixels a side and widen with the
// image (boundaryWidth), so they still show when a camera photo is fitted to a window.
// The line colour is the one of red, green, blue, yellow, cyan, magenta, black and white
// farthest on average from the colours on both sides of the boundaries. If img is nil
// or not r's size the boundaries are drawn on white.
func BoundaryImage(img image.Image, r *Result) image.Image {
	w, h := r.Width, r.Height
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Bounds(), image.White, image.Point{}, draw.Src)
	if img != nil && img.Bounds().Dx() == w && img.Bounds().Dy() == h {
		draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Over)
	}
	line := image.NewUniform(farthestColour(out, r))
	t := boundaryWidth(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			l := r.Labels[y*w+x]
			if (x+1 < w && r.Labels[y*w+x+1] != l) || (y+1 < h && r.Labels[(y+1)*w+x] != l) {
				draw.Draw(out, image.Rect(x-(t-1)/2, y-(t-1)/2, x+t/2+1, y+t/2+1), line, image.Point{}, draw.Src)
			}
		}
	}
	return out
}

// boundaryWidth is the width in pixels of the boundary lines of a w×h image: one pixel
// for every 800 of its longer side, rounded, at least one.
func boundaryWidth(w, h int) int {
	return max(1, (max(w, h)+400)/800)
}

// farthestColour is the boundary colour with the largest mean distance to the colours
// on both sides of the boundaries of r in img (to every pixel of img if r has one
// segment). The mean is of the distance, not its square, and over the boundaries, not
// the whole image: a black picture with white squares (the dice) averages nearest to
// black, so the squared distance over the image chose white, and the white lines drawn
// along the squares' edges vanished into them; white and black are each as near to one
// side of those edges, and red is far from both.
func farthestColour(img *image.RGBA, r *Result) color.RGBA {
	dist := make([]float64, len(boundaryColours))
	add := func(i int) {
		p := img.Pix[i : i+3 : i+3]
		for k, c := range boundaryColours {
			dr, dg, db := float64(p[0])-float64(c.R), float64(p[1])-float64(c.G), float64(p[2])-float64(c.B)
			dist[k] += math.Sqrt(dr*dr + dg*dg + db*db)
		}
	}
	w, h := r.Width, r.Height
	found := false
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			n := y*w + x
			if x+1 < w && r.Labels[n+1] != r.Labels[n] {
				add(img.PixOffset(x, y))
				add(img.PixOffset(x+1, y))
				found = true
			}
			if y+1 < h && r.Labels[n+w] != r.Labels[n] {
				add(img.PixOffset(x, y))
				add(img.PixOffset(x, y+1))
				found = true
			}
		}
	}
	if !found {
		for i := 0; i+3 < len(img.Pix); i += 4 {
			add(i)
		}
	}
	best := 0
	for k := range boundaryColours {
		if dist[k] > dist[best] {
			best = k
		}
	}
	return boundaryColours[best]
}

// to8 maps [0, 1] to 0..255, clamping.
func to8(v float64) uint8 {
	return uint8(min(max(v, 0), 1)*255 + 0.5)
}
