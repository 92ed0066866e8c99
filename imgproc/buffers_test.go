package imgproc

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestOnlyTheLoadsOwnPixelsGoBack: once a picture decoded larger than the working size
// is shrunk, its pixels go back to the load's buffers for the next decode only when
// they were the load's own (libjpeg-turbo's reduced decode): a large PNG's pixels, made
// by image/png and seldom the size a JPEG decode asks for, would pile up there, a
// picture's worth each, until the load ends.
func TestOnlyTheLoadsOwnPixelsGoBack(t *testing.T) {
	dir := t.TempDir()
	translucent := image.NewNRGBA(image.Rect(0, 0, 800, 600))
	grey := image.NewGray(image.Rect(0, 0, 800, 600))
	opaque := image.NewRGBA(image.Rect(0, 0, 800, 600))
	for y := range 600 {
		for x := range 800 {
			v := uint8(x ^ y)
			translucent.SetNRGBA(x, y, color.NRGBA{v, 255 - v, v / 2, 200})
			grey.SetGray(x, y, color.Gray{v})
			opaque.Set(x, y, color.RGBA{v, 255 - v, v / 2, 255})
		}
	}
	write := func(name string, encode func(*bytes.Buffer) error) {
		var buf bytes.Buffer
		if err := encode(&buf); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("translucent.png", func(b *bytes.Buffer) error { return png.Encode(b, translucent) })
	write("grey.png", func(b *bytes.Buffer) error { return png.Encode(b, grey) })
	write("photo.jpg", func(b *bytes.Buffer) error { return jpeg.Encode(b, opaque, nil) })
	reduce := func(size image.Point) image.Point { return workingSize(size, image.Point{}, 76800) }
	jpegBack := 0
	if haveTurboJPEG {
		jpegBack = 1
	}
	for _, tc := range []struct {
		name string
		back int
	}{{"translucent.png", 0}, {"grey.png", 0}, {"photo.jpg", jpegBack}} {
		bufs := &buffers{}
		d := decodeFile(dirFS(dir), tc.name, tc.name, DefaultMaxPixels, reduce, bufs)
		if d.skip != "" || d.img == nil || !d.reduced {
			t.Fatalf("%s: skip %q, reduced %v", tc.name, d.skip, d.reduced)
		}
		if got := len(bufs.pixels.free); got != tc.back {
			t.Errorf("%s: %d pixel buffers handed back, want %d", tc.name, got, tc.back)
		}
	}
}
