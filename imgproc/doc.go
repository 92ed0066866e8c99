// Package imgproc turns a folder of images into a data matrix and back.
//
// Load (or LoadFS, for embedded samples) walks a folder recursively, recognises images by
// their content — JPEG, PNG, GIF, BMP, TIFF, WebP, netpbm PBM/PGM/PPM and PFM float maps,
// never by the file name — and decodes them concurrently. JPEG EXIF orientation is applied,
// transparent pixels are composited on white, images of other sizes are resampled with the
// Lanczos filter to a common size, and every image becomes one row of an N × P matrix with
// values in [0, 1] (PFM samples are kept as they are). Files that cannot be used are
// skipped with a reason instead of failing the whole load. The rows are in natural path
// order (Picture_2 before Picture_10), whatever the number of workers.
//
// The conversion helpers map a row (or any pixel vector laid out as v[(y*W+x)*C+c]) back
// to an image for display: VectorToImage for pixels, Diverging for signed vectors such as
// a feature's effect, and Thumbnail for previews.
package imgproc
