package imgproc

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// photo is a small colour test picture with a gradient and a square whose place depends on k.
func photo(k int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, 32, 24))
	for y := 0; y < 24; y++ {
		for x := 0; x < 32; x++ {
			c := color.NRGBA{uint8(8 * x), uint8(10 * y), 120, 255}
			if x >= 4*k && x < 4*k+6 && y >= 8 && y < 14 {
				c = color.NRGBA{240, 240, 20, 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

func encodeJPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeFiles writes name → content into dir, creating subfolders.
func writeFiles(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// hugePNGHeader is a PNG signature and IHDR chunk (valid CRC) claiming 100000×100000 pixels.
func hugePNGHeader() []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], 100000)
	binary.BigEndian.PutUint32(ihdr[4:], 100000)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// badFolderSkips is what loading writeBadFolder's files must report, file → reason.
var badFolderSkips = map[string]string{
	"empty.png":      "empty file",
	"huge_claim.png": "100000×100000 pixels exceeds the 50 MP budget",
	"notes.jpg":      "not an image",
	"truncated.jpg":  "corrupt jpeg: unexpected EOF",
}

// writeBadFolder writes 5 good 32×24 pictures and 4 bad files: a truncated JPEG, a text
// file named .jpg, an empty file and a PNG whose header claims 100000×100000 pixels.
func writeBadFolder(t testing.TB, dir string) {
	t.Helper()
	writeFiles(t, dir, map[string][]byte{
		"good_1.jpg":     encodeJPEG(t, photo(0)),
		"good_2.jpg":     encodeJPEG(t, photo(1)),
		"good_3.png":     encodePNG(t, photo(2)),
		"good_4.png":     encodePNG(t, photo(3)),
		"good_5":         encodeJPEG(t, photo(4)), // no extension: recognised by content
		"truncated.jpg":  encodeJPEG(t, photo(5))[:300],
		"notes.jpg":      []byte("this is a text file, not a picture\n"),
		"empty.png":      nil,
		"huge_claim.png": hugePNGHeader(),
	})
}

// checkBadFolder loads a folder made by writeBadFolder and checks every outcome.
func checkBadFolder(t *testing.T, dir string) {
	t.Helper()
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"good_1.jpg", "good_2.jpg", "good_3.png", "good_4.png", "good_5"}
	if !equalStrings(ds.Names, want) {
		t.Errorf("loaded %v, want %v", ds.Names, want)
	}
	if len(ds.Skipped) != len(badFolderSkips) {
		t.Errorf("skipped %v, want the %d files of %v", ds.Skipped, len(badFolderSkips), badFolderSkips)
	}
	for _, s := range ds.Skipped {
		if s.Reason != badFolderSkips[s.Path] {
			t.Errorf("%s skipped because %q, want %q", s.Path, s.Reason, badFolderSkips[s.Path])
		}
	}
	if ds.Width != 32 || ds.Height != 24 || ds.Channels != 3 {
		t.Errorf("size %d×%d×%d, want 32×24×3", ds.Width, ds.Height, ds.Channels)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

const badFolderReadme = "Loader fixture (imgproc and the command line's tests): 5 good 32×24 pictures and 4 bad files " +
	"— truncated.jpg, notes.jpg (text), empty.png (0 bytes), huge_claim.png (header claims 100000×100000). " +
	"Written by `FEATURELAB_WRITE_FIXTURES=1 go test -run TestFixtureBadFolder ./imgproc`; " +
	"this file's name starts with a dot, so the loader ignores it.\n"

// TestFixtureBadFolder checks testdata/images/bad, which the command line's tests load:
// 5 images and exactly 4 skips. FEATURELAB_WRITE_FIXTURES=1 (re)writes it.
func TestFixtureBadFolder(t *testing.T) {
	dir := filepath.Join("..", "testdata", "images", "bad")
	if os.Getenv("FEATURELAB_WRITE_FIXTURES") == "1" {
		writeBadFolder(t, dir)
		writeFiles(t, dir, map[string][]byte{".README": []byte(badFolderReadme)})
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("fixture folder missing (write it with FEATURELAB_WRITE_FIXTURES=1): %v", err)
	}
	checkBadFolder(t, dir)
}

// redBlue is a w×h picture, red in its left half and blue in its right.
func redBlue(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA{255, 0, 0, 255}
			if x >= w/2 {
				c = color.NRGBA{0, 0, 255, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// shadedPhoto draws a w×h picture with smooth shading and sharp edges, like a photo.
func shadedPhoto(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := 0.5 + 0.3*math.Sin(float64(x)/37)*math.Cos(float64(y)/23)
			if (x/97+y/61)%2 == 0 {
				v = 1 - v
			}
			o := img.PixOffset(x, y)
			img.Pix[o] = uint8(255 * v)
			img.Pix[o+1] = uint8(255 * (1 - v))
			img.Pix[o+2] = uint8(255 * v * v)
			img.Pix[o+3] = 255
		}
	}
	return img
}
