package imgproc

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
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
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodePNG(t testing.TB, img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
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

// writeBadFolder writes 5 good pictures and 4 bad files: a truncated JPEG, a text file
// named .jpg, an empty file and a PNG whose header claims 100000×100000 pixels.
func writeBadFolder(t testing.TB, dir string) {
	files := map[string][]byte{
		"good_1.jpg":     encodeJPEG(t, photo(0)),
		"good_2.jpg":     encodeJPEG(t, photo(1)),
		"good_3.png":     encodePNG(t, photo(2)),
		"good_4.png":     encodePNG(t, photo(3)),
		"good_5":         encodeJPEG(t, photo(4)), // no extension: recognised by content
		"truncated.jpg":  encodeJPEG(t, photo(5))[:300],
		"notes.jpg":      []byte("this is a text file, not a picture\n"),
		"empty.png":      nil,
		"huge_claim.png": hugePNGHeader(),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFixtureBadFolderIsCurrent keeps testdata/images/bad (used by the command line's
// tests) equal to what writeBadFolder makes; FEATURELAB_WRITE_FIXTURES=1 rewrites it.
func TestFixtureBadFolderIsCurrent(t *testing.T) {
	dir := filepath.Join("..", "testdata", "images", "bad")
	if os.Getenv("FEATURELAB_WRITE_FIXTURES") == "1" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeBadFolder(t, dir)
	}
	fresh := t.TempDir()
	writeBadFolder(t, fresh)
	entries, _ := os.ReadDir(fresh)
	for _, e := range entries {
		want, _ := os.ReadFile(filepath.Join(fresh, e.Name()))
		got, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("testdata/images/bad/%s is stale or missing (rerun with FEATURELAB_WRITE_FIXTURES=1): %v", e.Name(), err)
		}
	}
}
