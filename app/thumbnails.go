package app

import (
	"context"
	"image"

	"github.com/disintegration/imaging"

	"featurelab/imgproc"
)

// ThumbnailSize is the longest side of a thumbnail in the dataset grid.
const ThumbnailSize = 120

// Thumbnails renders every image of a data set at thumbnail size. Tiny images are scaled
// up without smoothing so their pixels stay visible.
func Thumbnails(ds *imgproc.Dataset, size int) []image.Image {
	out := make([]image.Image, len(ds.Names))
	imgproc.Parallel(context.Background(), len(out), 0, func(i int) {
		out[i] = Thumbnail(ds.Image(i), size)
	})
	return out
}

// Thumbnail fits img into a size×size box.
func Thumbnail(img image.Image, size int) image.Image {
	b := img.Bounds()
	if b.Dx() >= size || b.Dy() >= size {
		return imaging.Fit(img, size, size, imaging.Box)
	}
	scale := max(1, size/max(b.Dx(), b.Dy()))
	return imaging.Resize(img, b.Dx()*scale, b.Dy()*scale, imaging.NearestNeighbor)
}
