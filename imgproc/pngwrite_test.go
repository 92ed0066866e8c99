package imgproc

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

// TestWritePNGIsImagePNGs checks writePNG against image/png at BestSpeed, byte for byte,
// on the picture types it takes: opaque and translucent NRGBA, opaque RGBA and Gray, of
// sizes around a band and a 32 kB IDAT chunk, noisy and smooth, and sub-pictures.
func TestWritePNGIsImagePNGs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	paint := func(pix []byte, smooth bool, w, bpp int) {
		for i := range pix {
			if smooth {
				x := i / bpp % w
				pix[i] = byte(x*3 + i/(w*bpp) + rng.IntN(3))
			} else {
				pix[i] = byte(rng.IntN(256))
			}
		}
	}
	opaqueAlpha := func(pix []byte) {
		for i := 3; i < len(pix); i += 4 {
			pix[i] = 255
		}
	}
	sizes := []image.Point{{1, 1}, {1, 17}, {3, 2}, {7, pngBand}, {13, pngBand + 1}, {64, 33}, {300, 200}, {1132, 605}}
	for _, size := range sizes {
		for _, smooth := range []bool{false, true} {
			r := image.Rect(0, 0, size.X, size.Y)
			nrgba := image.NewNRGBA(r)
			paint(nrgba.Pix, smooth, size.X, 4)
			translucent := image.NewNRGBA(r)
			copy(translucent.Pix, nrgba.Pix)
			opaqueAlpha(nrgba.Pix)
			translucent.Pix[3] = 200
			rgba := image.NewRGBA(r)
			paint(rgba.Pix, smooth, size.X, 4)
			opaqueAlpha(rgba.Pix)
			grey := image.NewGray(r)
			paint(grey.Pix, smooth, size.X, 1)
			pics := map[string]image.Image{"nrgba": nrgba, "translucent": translucent, "rgba": rgba, "gray": grey}
			if size.X > 2 && size.Y > 2 {
				pics["nrgba-sub"] = nrgba.SubImage(image.Rect(1, 1, size.X-1, size.Y))
				pics["gray-sub"] = grey.SubImage(image.Rect(2, 1, size.X, size.Y-1))
			}
			for name, img := range pics {
				t.Run(fmt.Sprintf("%s-%dx%d-smooth=%v", name, size.X, size.Y, smooth), func(t *testing.T) {
					s, ok := scanlinesOf(img)
					if !ok {
						t.Fatalf("scanlinesOf refused a %T", img)
					}
					var got, want bytes.Buffer
					if err := writePNG(&got, s); err != nil {
						t.Fatal(err)
					}
					if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&want, img); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got.Bytes(), want.Bytes()) {
						t.Fatalf("%d bytes differ from image/png's %d", got.Len(), want.Len())
					}
				})
			}
		}
	}
}

// TestEncodePNGLeavesOthersToImagePNG checks that a picture writePNG does not take (a
// translucent RGBA, a paletted one) is still written, readable, as image/png writes it.
func TestEncodePNGLeavesOthersToImagePNG(t *testing.T) {
	rgba := image.NewRGBA(image.Rect(0, 0, 5, 4))
	rgba.Pix[3] = 128
	pal := image.NewPaletted(image.Rect(0, 0, 5, 4), color.Palette{color.Black, color.White})
	for _, img := range []image.Image{rgba, pal} {
		if _, ok := scanlinesOf(img); ok {
			t.Fatalf("scanlinesOf took a %T", img)
		}
		var buf bytes.Buffer
		if err := EncodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		back, err := png.Decode(&buf)
		if err != nil || back.Bounds() != img.Bounds() {
			t.Fatalf("%T: read back %v, %v", img, back, err)
		}
	}
}
