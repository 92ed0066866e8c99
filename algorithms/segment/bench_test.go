package segment

import (
	"context"
	"image"
	"path/filepath"
	"testing"

	"golang.org/x/image/draw"
)

// benchImage is a tabletop photo resized to w×h, or a synthetic textured image of that
// size when the real data is absent.
func benchImage(tb testing.TB, w, h int) image.Image {
	src, err := loadImage(filepath.Join(dataDir, "tabletop", "Picture_1.jpg"))
	if err != nil {
		tb.Logf("real data absent (%v): using a synthetic image", err)
		img, _ := blocksImage(w, h, 1)
		return img
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

// BenchmarkKPYP481x321C20 segments a 481×321 photo (the size of the Berkeley images of
// the paper's experiments) with C = 20 and the default options.
func BenchmarkKPYP481x321C20(b *testing.B) {
	img := benchImage(b, 481, 321)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Segment(context.Background(), img, Options{Cell: 8, Width: 0.5})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Iterations), "iters")
		b.ReportMetric(res.Seconds/float64(res.Iterations)*1e3, "ms/iter")
		b.ReportMetric(float64(res.Segments), "segments")
	}
}
