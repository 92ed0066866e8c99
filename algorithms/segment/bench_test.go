package segment

import (
	"context"
	"image"
	"path/filepath"
	"runtime"
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

// userOptions are the options the command line and the window segment with: Options'
// zero value plus the texture features and the discount they turn on.
var userOptions = Options{Texture: DefaultTexture, Discount: DefaultDiscount}

// BenchmarkKPYP481x321 segments a 481×321 photo (the size of the Berkeley images of
// the paper's experiments) with the options a user gets.
func BenchmarkKPYP481x321(b *testing.B) {
	img := benchImage(b, 481, 321)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	var iters, segs float64
	for i := 0; i < b.N; i++ {
		res, err := Segment(context.Background(), img, userOptions)
		if err != nil {
			b.Fatal(err)
		}
		iters += float64(res.Iterations)
		segs += float64(res.Segments)
	}
	// On a shared machine the wall-clock ns/op includes waiting for a core; CPU time
	// (user + system, all threads) says what the work costs.
	cpu := (cpuTime() - cpu0).Seconds()
	b.ReportMetric(iters/float64(b.N), "iters")
	b.ReportMetric(segs/float64(b.N), "segments")
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	b.ReportMetric(cpu/iters*1e3, "cpu-ms/iter")
}

// BenchmarkKPYPIteration is one VB iteration (global steps and the pass over the
// pixels) on the 481×321 photo, after 10 iterations from the start.
func BenchmarkKPYPIteration(b *testing.B) {
	img := benchImage(b, 481, 321)
	opt, _ := Options{}.withDefaults()
	p, err := newPixels(img, false, 1)
	if err != nil {
		b.Fatal(err)
	}
	m := newKPYP(p, opt)
	if err := m.initialise(context.Background(), opt); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if _, err := m.iterate(i == 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := m.iterate(false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N)*1e3, "cpu-ms/op")
}

// BenchmarkKMeans481x321 is the "kmeans" method with K = 5 on the same photo.
func BenchmarkKMeans481x321(b *testing.B) {
	img := benchImage(b, 481, 321)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Segment(context.Background(), img, Options{Method: MethodKMeans}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKPYPCameraPhoto segments a 4000×3000 photo with the options a user gets:
// shrunk to MaxWorkPixels, fitted, and labelled back at full size. B/op is what a
// camera frame costs beyond the decoded image.
func BenchmarkKPYPCameraPhoto(b *testing.B) {
	img := benchImage(b, 4000, 3000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Segment(context.Background(), img, userOptions)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Labels) != 4000*3000 {
			b.Fatalf("%d labels", len(res.Labels))
		}
	}
}

// BenchmarkSuperpixelsWorkSize builds the superpixels of the final labelling at the
// largest size a photo is read at (MaxWorkPixels), as for a camera frame.
func BenchmarkSuperpixelsWorkSize(b *testing.B) {
	img := benchImage(b, 1182, 887) // 1 048 434 pixels, just under MaxWorkPixels
	p, err := newPixels(img, true, runtime.GOMAXPROCS(0))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, k, _ := superpixels(p, DefaultCell, runtime.GOMAXPROCS(0)); k == 0 {
			b.Fatal("no superpixels")
		}
	}
}

// BenchmarkBoundaryImage draws the boundaries of a camera frame's segmentation (4000×3000,
// segments of 40×40 pixels: a busier map than the KPYP's), as the Save button does.
func BenchmarkBoundaryImage(b *testing.B) {
	const w, h = 4000, 3000
	img := benchImage(b, w, h)
	r := &Result{Width: w, Height: h, Labels: make([]int32, w*h), Segments: 100 * 75}
	for n := range r.Labels {
		r.Labels[n] = int32(n/w/40*100 + n%w/40)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out := BoundaryImage(img, r); out.Bounds().Dx() != w {
			b.Fatal("wrong size")
		}
	}
}
