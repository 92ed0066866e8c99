//go:build cgo && !windows && !purego

package imgproc

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestScaleFor(t *testing.T) {
	for _, tc := range []struct {
		w, h     int
		min      image.Point
		num, den int
	}{
		{4000, 3000, image.Pt(320, 240), 1, 8}, // 500×375
		{1600, 1200, image.Pt(320, 240), 2, 8}, // 400×300; 1/8 would be 200×150
		{400, 200, image.Pt(40, 20), 1, 8},
		{330, 250, image.Pt(320, 240), 8, 8}, // no reduction keeps both sides
		{3000, 4000, image.Pt(240, 320), 1, 8},
	} {
		if num, den := scaleFor(tc.w, tc.h, tc.min); num != tc.num || den != tc.den {
			t.Errorf("%d×%d to at least %v: %d/%d, want %d/%d", tc.w, tc.h, tc.min, num, den, tc.num, tc.den)
		}
	}
}

// TestReducedJPEGMatchesGosDecoder: a photo decoded already reduced by libjpeg-turbo and
// then box-filtered to the working size is, pixel for pixel, within a few levels of the
// same photo decoded in full by image/jpeg and box-filtered.
func TestReducedJPEGMatchesGosDecoder(t *testing.T) {
	src := shadedPhoto(1600, 1200)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, src, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	to := image.Pt(320, 240)
	fast, err := decodeJPEGReduced(buf.Bytes(), image.Pt(1600, 1200), to, &buffers{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fast.Bounds().Size(); got != image.Pt(400, 300) {
		t.Fatalf("decoded at %v, want 400×300 (2/8)", got)
	}
	full, err := jpeg.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	a, b := make([]float64, 320*240*3), make([]float64, 320*240*3)
	toVector(shrink(fast, to.X, to.Y), 3, a)
	toVector(shrink(full, to.X, to.Y), 3, b)
	var sum float64
	diffs := make([]float64, len(a))
	for i := range a {
		diffs[i] = math.Abs(a[i] - b[i])
		sum += diffs[i]
	}
	slices.Sort(diffs)
	mean, p99 := sum/float64(len(a)), diffs[len(diffs)*99/100]
	t.Logf("differences: mean %.4f, 99th percentile %.4f, largest %.4f (of 1)", mean, p99, diffs[len(diffs)-1])
	// The two differ in their footprint (4×4 DCT blocks then a 1.25 box, against a 5×5
	// box) and in how they upsample the half-resolution colour (libjpeg-turbo smooths it,
	// image/jpeg repeats it), which shows at the sharp colour edges alone: measured mean
	// 0.0076 and 99th percentile 0.063 on this picture.
	if mean > 3.0/255 || p99 > 24.0/255 {
		t.Fatalf("reduced decode differs from the full one by %.4f on average, %.4f at the 99th percentile", mean, p99)
	}
}

// TestLoadLargeJPEGs: large JPEGs load at the working size through the reduced decoder,
// grey ones as grey; a damaged one is skipped with the reason Go's decoder gives.
func TestLoadLargeJPEGs(t *testing.T) {
	colour := encodeJPEG(t, shadedPhoto(1600, 1200))
	grey := image.NewGray(image.Rect(0, 0, 1600, 1200))
	for i := range grey.Pix {
		grey.Pix[i] = uint8(i / 7919)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.jpg": colour, "b.jpg": colour, "c.jpg": colour[:len(colour)/2]})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Width != 320 || ds.Height != 240 || ds.Channels != 3 || len(ds.Names) != 2 {
		t.Fatalf("loaded %d images at %d×%d×%d, want 2 at 320×240×3", len(ds.Names), ds.Width, ds.Height, ds.Channels)
	}
	_, goErr := jpeg.Decode(bytes.NewReader(colour[:len(colour)/2]))
	if len(ds.Skipped) != 1 || ds.Skipped[0].Reason != "corrupt jpeg: "+goErr.Error() {
		t.Fatalf("skipped %v, want c.jpg as %q", ds.Skipped, "corrupt jpeg: "+goErr.Error())
	}

	dir = t.TempDir()
	g := encodeJPEG(t, grey)
	writeFiles(t, dir, map[string][]byte{"a.jpg": g, "b.jpg": g})
	ds, err = Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Channels != 1 || ds.Width != 320 {
		t.Fatalf("grey JPEGs loaded at %d×%d×%d, want 320×240×1", ds.Width, ds.Height, ds.Channels)
	}
	if !strings.HasSuffix(ds.Names[0], ".jpg") {
		t.Fatal(ds.Names)
	}
}

// BenchmarkDecodeCameraJPEG decodes a 4000×3000 JPEG to the working size: libjpeg-turbo
// at 1/8 in the DCT domain then the box filter, against image/jpeg in full then the box
// filter.
func BenchmarkDecodeCameraJPEG(b *testing.B) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, shadedPhoto(4000, 3000), &jpeg.Options{Quality: 90}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.Run("turbojpeg-reduced", func(b *testing.B) {
		for b.Loop() {
			img, err := decodeJPEGReduced(data, image.Pt(4000, 3000), image.Pt(320, 240), &buffers{})
			if err != nil {
				b.Fatal(err)
			}
			shrink(img, 320, 240)
		}
	})
	b.Run("image-jpeg-full", func(b *testing.B) {
		for b.Loop() {
			img, err := jpeg.Decode(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			shrink(img, 320, 240)
		}
	})
}

// FuzzDecodeJPEGReduced: no input may crash libjpeg-turbo's reduced decode (a crash in
// C would end the process with a trace no recover can catch) or make it return a
// picture of the wrong size; anything it cannot decode is an error.
func FuzzDecodeJPEGReduced(f *testing.F) {
	for _, img := range []image.Image{shadedPhoto(48, 32), image.NewGray(image.Rect(0, 0, 40, 24))} {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes(), 8, 6)
		f.Add(buf.Bytes()[:buf.Len()/2], 8, 6)
	}
	if arith, err := os.ReadFile(filepath.Join("testdata", "arithmetic.jpg")); err == nil {
		f.Add(arith, 8, 6)
		f.Add(arith[:len(arith)-40], 24, 16)
	}
	f.Fuzz(func(t *testing.T, data []byte, w, h int) {
		minSize := image.Pt(max(1, w%512), max(1, h%512))
		// In a load only a JPEG whose header image/jpeg read, within the pixel
		// budget, reaches this decoder; here the fuzzer's size is used when Go's
		// header reader fails, to try mismatched sizes too.
		size := image.Pt(w%4096, h%4096)
		if cfg, err := jpeg.DecodeConfig(bytes.NewReader(data)); err == nil {
			size = image.Pt(cfg.Width, cfg.Height)
		} else if fr, ok := readJPEGFrame(data); ok && fr.arithmetic() {
			size = image.Pt(fr.width, fr.height) // what the load hands over for arithmetic coding
		}
		if int64(size.X)*int64(size.Y) > 1<<22 {
			return
		}
		img, err := decodeJPEGReduced(data, size, minSize, &buffers{})
		if err != nil {
			return
		}
		cfg := image.Config{Width: size.X, Height: size.Y}
		num, den := scaleFor(cfg.Width, cfg.Height, minSize)
		want := image.Pt((cfg.Width*num+den-1)/den, (cfg.Height*num+den-1)/den)
		if got := img.Bounds().Size(); got != want {
			t.Fatalf("%d×%d at %d/%d decoded to %v, want %v", cfg.Width, cfg.Height, num, den, got, want)
		}
	})
}
