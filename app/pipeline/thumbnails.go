package pipeline

import (
	"context"
	"image"

	"featurelab/imgproc"
)

// ThumbnailSize is the longest side of a thumbnail in the dataset grid.
const ThumbnailSize = 120

// Thumbnails renders every image of a data set at ThumbnailSize (imgproc.Thumbnail).
func Thumbnails(ds *imgproc.Dataset) []image.Image {
	out := make([]image.Image, len(ds.Names))
	imgproc.Parallel(context.Background(), len(out), 0, func(i int) {
		out[i] = imgproc.Thumbnail(ds.Image(i), ThumbnailSize)
	})
	return out
}

// PreviewThumbnails renders, from the decoded pictures of the data set to come
// (imgproc.Options.Decoded), the thumbnails Thumbnails will give once it is loaded.
func PreviewThumbnails(shape *imgproc.Dataset, pictures []image.Image) []image.Image {
	out := make([]image.Image, len(pictures))
	imgproc.Parallel(context.Background(), len(out), 0, func(i int) {
		out[i] = imgproc.PreviewThumbnail(pictures[i], shape, ThumbnailSize)
	})
	return out
}
