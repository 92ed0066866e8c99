package imgproc

import (
	"bytes"
	"context"
	"github.com/disintegration/imaging"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"

	"featurelab/internal/accuracy"
)

// BenchmarkLoadTabletop loads the 100 real 320×240 tabletop photos (all of JPEG decoding,
// colour conversion and the data matrix).
func BenchmarkLoadTabletop(b *testing.B) {
	dir := accuracy.SharedData(b, "tabletop")
	b.ReportAllocs()
	for b.Loop() {
		ds, err := Load(context.Background(), dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(ds.Names) != 100 {
			b.Fatalf("%d images", len(ds.Names))
		}
	}
}

// BenchmarkToVectorYCbCr converts one decoded 320×240 JPEG (4:2:0) to RGB floats: the
// loader's own share of the work, without the decoder.
func BenchmarkToVectorYCbCr(b *testing.B) {
	img := image.NewYCbCr(image.Rect(0, 0, 320, 240), image.YCbCrSubsampleRatio420)
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = uint8(i), uint8(3*i)
	}
	dst := make([]float64, 320*240*3)
	b.ReportAllocs()
	for b.Loop() {
		toVector(img, 3, dst)
	}
}

// BenchmarkResampleCard resamples one 314×476 colour card to 222×323, the resize the
// cards data set needs.
func BenchmarkResampleCard(b *testing.B) {
	src := ImageToVector(imageOfSize(314, 476), false)
	dst := make([]float64, 222*323*3)
	b.ReportAllocs()
	for b.Loop() {
		resample(src, 314, 476, 3, dst, 222, 323, true)
	}
}

// BenchmarkLoadORLFaces loads the 400 real 92×112 PGM faces in 40 subfolders.
func BenchmarkLoadORLFaces(b *testing.B) {
	dir := accuracy.SharedData(b, "orl_faces")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(context.Background(), dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPreviewThumbnail makes the 120×90 preview of one decoded 320×240 JPEG (4:2:0):
// the window's first look at a folder, before the data matrix is filled.
func BenchmarkPreviewThumbnail(b *testing.B) {
	img := image.NewYCbCr(image.Rect(0, 0, 320, 240), image.YCbCrSubsampleRatio420)
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = uint8(i), uint8(3*i)
	}
	shape := &Dataset{Width: 320, Height: 240, Channels: 3}
	b.ReportAllocs()
	for b.Loop() {
		PreviewThumbnail(img, shape, 120)
	}
}

// BenchmarkEncodePNGCamera writes a 4000×2669 photo-like picture as a PNG, the size of
// the boundaries.png a camera photo's segmentation saves: EncodePNG (BestSpeed, its
// rows filtered on all cores) against the standard library at BestSpeed, the same
// bytes on one core, and at its default level, with the file size of each. The picture is
// shading with ±6 levels of sensor-like noise, through a JPEG at quality 90 as a
// camera's file would be.
func BenchmarkEncodePNGCamera(b *testing.B) {
	noisy := shadedPhoto(4000, 2669)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noisy.Pix {
		if i%4 != 3 {
			noisy.Pix[i] = uint8(min(max(int(noisy.Pix[i])+rng.IntN(13)-6, 0), 255))
		}
	}
	var file bytes.Buffer
	if err := jpeg.Encode(&file, noisy, &jpeg.Options{Quality: 90}); err != nil {
		b.Fatal(err)
	}
	decoded, err := jpeg.Decode(&file)
	if err != nil {
		b.Fatal(err)
	}
	img := image.NewRGBA(decoded.Bounds()) // as BoundaryImage draws it
	draw.Draw(img, img.Bounds(), decoded, image.Point{}, draw.Src)
	for _, bc := range []struct {
		name   string
		encode func(io.Writer, image.Image) error
	}{
		{"EncodePNG", EncodePNG},
		{"png-bestspeed", (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode},
		{"png-default", png.Encode},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := bc.encode(&buf, img); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len())/1e6, "MB")
		})
	}
}

// BenchmarkShrinkCamera is the load's shrink of a camera photo decoded at 1/8 scale
// (500 × 375) to the working size (320 × 240): boxResize against imaging.Resize, the
// same bytes.
func BenchmarkShrinkCamera(b *testing.B) {
	src := shadedPhoto(500, 375)
	for _, bc := range []struct {
		name   string
		resize func() *image.NRGBA
	}{
		{"boxResize", func() *image.NRGBA { return boxResize(src, 320, 240) }},
		{"imaging", func() *image.NRGBA { return imaging.Resize(src, 320, 240, imaging.Box) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				bc.resize()
			}
		})
	}
}
