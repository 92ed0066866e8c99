package imgproc

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadSkipsBadFilesWithReasons(t *testing.T) {
	dir := t.TempDir()
	writeBadFolder(t, dir)
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Names) != 5 || len(ds.Skipped) != 4 {
		t.Fatalf("loaded %v, skipped %v; want 5 and 4", ds.Names, ds.Skipped)
	}
	want := map[string]string{
		"truncated.jpg":  "corrupt",
		"notes.jpg":      "not an image",
		"empty.png":      "empty file",
		"huge_claim.png": "exceeds the 50 MP budget",
	}
	for _, s := range ds.Skipped {
		if !strings.Contains(s.Reason, want[s.Path]) {
			t.Errorf("%s skipped because %q, want %q", s.Path, s.Reason, want[s.Path])
		}
	}
	if ds.Width != 32 || ds.Height != 24 || ds.Channels != 3 {
		t.Fatalf("size %d×%d×%d", ds.Width, ds.Height, ds.Channels)
	}
}

func TestLoadErrors(t *testing.T) {
	onlyBad := t.TempDir()
	os.WriteFile(filepath.Join(onlyBad, "a.jpg"), []byte("text"), 0o644)
	one := t.TempDir()
	os.WriteFile(filepath.Join(one, "a.png"), encodePNG(t, photo(0)), 0o644)
	tests := []struct {
		name, dir, want string
	}{
		{"missing", filepath.Join(onlyBad, "nope"), "no such folder"},
		{"only bad", onlyBad, "no usable images (1 skipped: a.jpg: not an image)"},
		{"empty", t.TempDir(), "no usable images (the folder has no files)"},
		{"one image", one, "only 1 usable image"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(context.Background(), tt.dir, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestLoadResizesTransparencyAndGrey(t *testing.T) {
	dir := t.TempDir()
	clear := image.NewNRGBA(image.Rect(0, 0, 32, 24)) // fully transparent → white
	big := image.NewGray(image.Rect(0, 0, 64, 48))
	for i := range big.Pix {
		big.Pix[i] = 128
	}
	os.WriteFile(filepath.Join(dir, "a.png"), encodePNG(t, photo(0)), 0o644)
	os.WriteFile(filepath.Join(dir, "b.png"), encodePNG(t, clear), 0o644)
	os.WriteFile(filepath.Join(dir, "c.png"), encodePNG(t, big), 0o644)
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Width != 32 || ds.Height != 24 || len(ds.Resized) != 1 || ds.Resized[0] != "c.png" {
		t.Fatalf("size %d×%d, resized %v", ds.Width, ds.Height, ds.Resized)
	}
	for _, v := range ds.Pixels.RawRowView(1) {
		if v != 1 {
			t.Fatalf("transparent pixel loaded as %v, want white", v)
		}
	}
	grey, err := Load(context.Background(), dir, Options{Color: ColorGray, Width: 16, Height: 12})
	if err != nil {
		t.Fatal(err)
	}
	if grey.Channels != 1 || grey.Width != 16 || len(grey.Resized) != 3 {
		t.Fatalf("grey load %d channels %d wide, resized %v", grey.Channels, grey.Width, grey.Resized)
	}
	if v := grey.Pixels.At(2, 50); math.Abs(v-128.0/255) > 0.01 {
		t.Fatalf("grey 128 loaded as %v", v)
	}
}

func TestLoadAppliesEXIFOrientation(t *testing.T) {
	data := encodeJPEG(t, photo(0)) // 32×24
	// APP1 Exif segment with a little-endian TIFF header and one IFD entry: orientation 6.
	exif := []byte("Exif\x00\x00II*\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00\x06\x00\x00\x00\x00\x00\x00\x00")
	seg := append([]byte{0xFF, 0xE1, byte((len(exif) + 2) >> 8), byte(len(exif) + 2)}, exif...)
	rotated := append(append(append([]byte{}, data[:2]...), seg...), data[2:]...)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.jpg"), rotated, 0o644)
	os.WriteFile(filepath.Join(dir, "b.jpg"), rotated, 0o644)
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Width != 24 || ds.Height != 32 {
		t.Fatalf("orientation 6 gave %d×%d, want 24×32", ds.Width, ds.Height)
	}
}

func TestPNMAndPFM(t *testing.T) {
	dir := t.TempDir()
	// A raw PGM with a comment, whose first pixel is '#' (35), which trips some decoders.
	pgm := append([]byte("P5\n# made by a test\n3 2\n255\n"), 35, 0, 255, 10, 20, 30)
	os.WriteFile(filepath.Join(dir, "a.pgm"), pgm, 0o644)
	os.WriteFile(filepath.Join(dir, "b.pgm"), []byte("P2\n3 2\n255\n35 0 255\n10 20 30\n"), 0o644)
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Channels != 1 || ds.Width != 3 || ds.Height != 2 {
		t.Fatalf("pgm loaded as %d×%d×%d", ds.Width, ds.Height, ds.Channels)
	}
	for _, row := range []int{0, 1} {
		if got := ds.Pixels.At(row, 0); math.Abs(got-35.0/255) > 1e-12 {
			t.Fatalf("row %d first pixel %v", row, got)
		}
	}

	m := &FloatImage{W: 2, H: 2, Channels: 1, Pix: []float32{-0.25, 0.5, 1.5, 0.125}}
	var b bytes.Buffer
	if err := EncodePFM(&b, m); err != nil {
		t.Fatal(err)
	}
	pfmDir := t.TempDir()
	os.WriteFile(filepath.Join(pfmDir, "x.pfm"), b.Bytes(), 0o644)
	os.WriteFile(filepath.Join(pfmDir, "y"), b.Bytes(), 0o644)
	fds, err := Load(context.Background(), pfmDir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{-0.25, 0.5, 1.5, 0.125} {
		if got := fds.Pixels.At(0, i); got != want {
			t.Fatalf("pfm sample %d = %v, want %v (values must be kept as stored)", i, got, want)
		}
	}
}

func TestLoadIsTheSameForAnyNumberOfWorkers(t *testing.T) {
	dir := t.TempDir()
	writeBadFolder(t, dir)
	one, err := Load(context.Background(), dir, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	many, err := Load(context.Background(), dir, Options{Workers: 8})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(one.Names, ",") != strings.Join(many.Names, ",") {
		t.Fatal("order depends on workers")
	}
	a, b := one.Pixels.RawMatrix().Data, many.Pixels.RawMatrix().Data
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("pixels depend on workers")
		}
	}
}

func TestLoadRealData(t *testing.T) {
	tests := []struct {
		dir                  string
		n, w, h, c           int
		first, last, resized string
	}{
		{"tabletop", 100, 320, 240, 3, "Picture_1.jpg", "Picture_100.jpg", ""},
		{"orl_faces", 400, 92, 112, 1, "s1/1.pgm", "s40/10.pgm", ""},
		{"cards", 56, 222, 323, 3, "2_of_clubs.png", "red_joker.png", "back@2x.png"},
		{"dice", 100, 14, 14, 1, "sim_pic_1.png", "sim_pic_100.png", ""},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := filepath.Join("..", "..", "shared", "data", tt.dir)
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("real data not here (%v): it lives in ../shared/data", err)
			}
			ds, err := Load(context.Background(), dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			n := len(ds.Names)
			if n != tt.n || ds.Width != tt.w || ds.Height != tt.h || ds.Channels != tt.c {
				t.Fatalf("%d images %d×%d×%d", n, ds.Width, ds.Height, ds.Channels)
			}
			if ds.Names[0] != tt.first || ds.Names[n-1] != tt.last {
				t.Fatalf("order %s … %s", ds.Names[0], ds.Names[n-1])
			}
			if tt.resized != "" && (len(ds.Resized) != 2 || !strings.Contains(strings.Join(ds.Resized, ","), tt.resized)) {
				t.Fatalf("resized %v", ds.Resized)
			}
			for _, v := range ds.Pixels.RawMatrix().Data {
				if v < 0 || v > 1 {
					t.Fatalf("pixel %v outside [0,1]", v)
				}
			}
		})
	}
}

func TestDivergingIsWhiteAtZero(t *testing.T) {
	img := Diverging([]float64{-1, 0, 1}, 3, 1, 1).(*image.NRGBA)
	if c := img.NRGBAAt(1, 0); c != (color.NRGBA{255, 255, 255, 255}) {
		t.Fatalf("zero maps to %v", c)
	}
	if c := img.NRGBAAt(0, 0); !(c.B > c.R) {
		t.Fatalf("negative maps to %v, want blue", c)
	}
	if c := img.NRGBAAt(2, 0); !(c.R > c.B) {
		t.Fatalf("positive maps to %v, want red", c)
	}
}
