package imgproc

import (
	"image"

	"github.com/disintegration/imaging"
)

// Thumbnail fits img into a maxSide×maxSide box, keeping its aspect ratio. Larger pictures
// are shrunk with the box filter, which averages every pixel they cover: at thumbnail size
// it is as sharp as Lanczos and several times faster, and a window shrinks a whole
// folder while the user waits. Small ones (a 14×14 dice picture) are enlarged by a whole
// factor without smoothing so their pixels stay crisp.
func Thumbnail(img image.Image, maxSide int) image.Image {
	b := img.Bounds()
	w, h := thumbnailSize(b.Dx(), b.Dy(), maxSide)
	switch {
	case w == 0:
		return image.NewNRGBA(image.Rect(0, 0, 0, 0))
	case w == b.Dx() && h == b.Dy():
		return img
	}
	return resizeTo(img, w, h)
}

// PreviewThumbnail is the thumbnail that image i of shape will have once its pixels are
// loaded, made from picture, the image as decoded: stretched to the data set's common
// size when its own differs, and in the data set's colours (grey for a grey data set,
// transparent parts on white). It lets a window show a folder before the data matrix
// exists (Options.Decoded).
func PreviewThumbnail(picture image.Image, shape *Dataset, maxSide int) image.Image {
	w, h := thumbnailSize(shape.Width, shape.Height, maxSide)
	small := resizeTo(picture, w, h)
	v := make([]float64, w*h*shape.Channels)
	toVector(small, shape.Channels, v)
	return VectorToImage(v, w, h, shape.Channels)
}

// thumbnailSize is the size Thumbnail gives a w×h picture.
func thumbnailSize(w, h, maxSide int) (int, int) {
	switch {
	case maxSide <= 0 || w <= 0 || h <= 0:
		return 0, 0
	case w > maxSide || h > maxSide:
		if w >= h {
			return maxSide, max(1, h*maxSide/w)
		}
		return max(1, w*maxSide/h), maxSide
	}
	k := max(1, maxSide/max(w, h))
	return w * k, h * k
}

// resizeTo scales img to w×h: averaging when it shrinks in either direction, repeating
// pixels when it only grows.
func resizeTo(img image.Image, w, h int) image.Image {
	b := img.Bounds()
	filter := imaging.NearestNeighbor
	if b.Dx() > w || b.Dy() > h {
		filter = imaging.Box
	}
	return Resize(img, w, h, filter)
}

// ShrinkToThumbnail shrinks a w×h picture of c interleaved float samples per pixel, v laid
// out as v[(y*w+x)*c+k], to the size Thumbnail gives it, with Thumbnail's box filter
// weights but no rounding or clamping. Being linear it commutes with linear maps: c may
// be any count, so the D components of a PCA (c·D values per pixel) shrink in one pass,
// and a reconstruction from the shrunk components is the shrunk reconstruction. A
// picture that already fits is returned as it is (Thumbnail enlarges it afterwards).
func ShrinkToThumbnail(v []float64, w, h, c, maxSide int) (out []float64, tw, th int) {
	tw, th = thumbnailSize(w, h, maxSide)
	if tw >= w && th >= h {
		return v, w, h
	}
	xs := resampleWeights(tw, w, imaging.Box)
	ys := resampleWeights(th, h, imaging.Box)
	out = make([]float64, tw*th*c)
	rowIn := w * c
	blend := make([]float64, rowIn) // one output row's source rows, blended vertically
	for y, taps := range ys {
		clear(blend)
		for _, t := range taps {
			src := v[t.i*rowIn : (t.i+1)*rowIn]
			for k, s := range src {
				blend[k] += t.w * s
			}
		}
		resampleRow(out[y*tw*c:(y+1)*tw*c], blend, xs, c)
	}
	return out, tw, th
}
