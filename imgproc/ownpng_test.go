package imgproc

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"
)

// TestOwnPNGIsSkipped: a picture Feature Lab saves is a valid PNG (every decoder reads
// it, the mark's checksum included) that the loader skips with the reason, while a PNG
// of the same picture from elsewhere loads.
func TestOwnPNGIsSkipped(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 6, 4))
	img.Pix[3] = 200
	var own bytes.Buffer
	if err := EncodePNG(&own, img); err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(bytes.NewReader(own.Bytes()))
	if err != nil {
		t.Fatalf("the marked PNG does not decode: %v", err)
	}
	if g, ok := back.(*image.Gray); !ok || !bytes.Equal(g.Pix, img.Pix) {
		t.Fatalf("the marked PNG decodes to another picture")
	}
	plain := encodePNG(t, img)
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.png": plain, "b.png": plain, "features.png": own.Bytes()})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Names) != 2 || len(ds.Skipped) != 1 || ds.Skipped[0].Path != "features.png" ||
		ds.Skipped[0].Reason != "written by Feature Lab (an export), not one of the images" {
		t.Fatalf("loaded %v, skipped %v", ds.Names, ds.Skipped)
	}
}
