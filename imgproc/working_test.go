package imgproc

import (
	"context"
	"image"
	"image/color"
	"strings"
	"testing"
)

func TestWorkingSize(t *testing.T) {
	for _, tc := range []struct {
		name       string
		size, want image.Point
		budget     int64
		out        image.Point
	}{
		{"camera photo", image.Pt(4000, 3000), image.Point{}, DefaultWorkingPixels, image.Pt(320, 240)},
		{"portrait photo", image.Pt(3000, 4000), image.Point{}, DefaultWorkingPixels, image.Pt(240, 320)},
		{"the tabletop size stays", image.Pt(320, 240), image.Point{}, DefaultWorkingPixels, image.Pt(320, 240)},
		{"small stays", image.Pt(64, 64), image.Point{}, DefaultWorkingPixels, image.Pt(64, 64)},
		{"16:9", image.Pt(1920, 1080), image.Point{}, DefaultWorkingPixels, image.Pt(369, 208)},
		{"rounding above the budget", image.Pt(40, 30), image.Point{}, 100, image.Pt(11, 9)},
		{"a strip", image.Pt(100000, 2), image.Point{}, 1000, image.Pt(1000, 1)},
		{"a requested size", image.Pt(4000, 3000), image.Pt(160, 120), DefaultWorkingPixels, image.Pt(160, 120)},
		{"a requested size above the picture", image.Pt(400, 300), image.Pt(800, 600), 1000, image.Pt(400, 300)},
	} {
		got := workingSize(tc.size, tc.want, tc.budget)
		if got != tc.out {
			t.Errorf("%s: %v → %v, want %v", tc.name, tc.size, got, tc.out)
		}
		if int64(got.X)*int64(got.Y) > max(tc.budget, int64(tc.want.X)*int64(tc.want.Y)) && got != tc.size {
			t.Errorf("%s: %v is over the budget", tc.name, got)
		}
	}
}

// TestShrinkTo: a picture over the budget comes back at its working size, one within it
// unchanged.
func TestShrinkTo(t *testing.T) {
	big := image.NewNRGBA(image.Rect(0, 0, 400, 300))
	if got := ShrinkTo(big, 1000).Bounds().Size(); got != workingSize(image.Pt(400, 300), image.Point{}, 1000) {
		t.Errorf("400×300 at a budget of 1000: %v", got)
	}
	if got := ShrinkTo(big, 120000); got != image.Image(big) {
		t.Errorf("a picture within the budget was copied to %v", got.Bounds())
	}
}

// TestLoadReducesLargePictures loads a folder of pictures larger than the working budget:
// they are reduced on decoding, at their aspect ratio, the Decoded callback already sees
// the reduced pictures (the full-size ones are gone), EXIF orientation still applies, and
// the result is the average of what each output pixel covers.
func TestLoadReducesLargePictures(t *testing.T) {
	big := redBlue(400, 200)
	dir := t.TempDir()
	png := encodePNG(t, big)
	writeFiles(t, dir, map[string][]byte{"a.png": png, "b.png": png, "c.jpg": withOrientation(encodeJPEG(t, big), 6)})
	var seen []image.Point
	opt := Options{WorkingPixels: 800, Decoded: func(_ *Dataset, pics []image.Image) {
		for _, p := range pics {
			seen = append(seen, p.Bounds().Size())
		}
	}}
	ds, err := Load(context.Background(), dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	// 400×200 at 800 pixels: 40×20; the turned JPEG is 20×40 and is resampled to 40×20.
	if ds.Width != 40 || ds.Height != 20 {
		t.Fatalf("working size %d×%d, want 40×20", ds.Width, ds.Height)
	}
	want := []image.Point{{40, 20}, {40, 20}, {20, 40}}
	for i, s := range seen {
		if s != want[i] {
			t.Errorf("Decoded saw %v for %s, want %v", s, ds.Names[i], want[i])
		}
	}
	if len(ds.Resized) != 3 {
		t.Errorf("resized %v, want all three", ds.Resized)
	}
	// Red left half, blue right half, and no ringing: the box filter averages.
	pic := ds.Image(0).(*image.NRGBA)
	if l, r := pic.NRGBAAt(5, 10), pic.NRGBAAt(35, 10); l != (color.NRGBA{255, 0, 0, 255}) || r != (color.NRGBA{0, 0, 255, 255}) {
		t.Errorf("reduced picture: left %v right %v", l, r)
	}
	turned := ds.Image(2).(*image.NRGBA)
	if top, bottom := turned.NRGBAAt(20, 3), turned.NRGBAAt(20, 17); top.R < 200 || bottom.B < 200 {
		t.Errorf("the turned JPEG: top %v bottom %v, want red over blue", top, bottom)
	}
}

// TestLoadRequestedSizeReducesDirectly: with a size given, a picture larger than the budget
// is reduced straight to it, not first to the budget.
func TestLoadRequestedSizeReducesDirectly(t *testing.T) {
	big := image.NewGray(image.Rect(0, 0, 300, 300))
	for i := range big.Pix {
		big.Pix[i] = uint8(i % 251)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.png": encodePNG(t, big), "b.png": encodePNG(t, big)})
	var seen image.Point
	ds, err := Load(context.Background(), dir, Options{Width: 30, Height: 20, WorkingPixels: 100,
		Decoded: func(_ *Dataset, pics []image.Image) { seen = pics[0].Bounds().Size() }})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Width != 30 || ds.Height != 20 || seen != image.Pt(30, 20) {
		t.Fatalf("loaded at %d×%d, decoded at %v; want 30×20 for both", ds.Width, ds.Height, seen)
	}
}

// TestLoadRefusesAFolderThatDoesNotFit: a folder whose data matrix would not fit in the
// memory budget is refused before the matrix is allocated, with a line that says how
// much it needs and what to change.
func TestLoadRefusesAFolderThatDoesNotFit(t *testing.T) {
	dir := t.TempDir()
	pic := encodePNG(t, redBlue(40, 30))
	writeFiles(t, dir, map[string][]byte{"a.png": pic, "b.png": pic, "c.png": pic})
	// 3 images of 40×30×3 need 43 200 bytes as float32.
	_, err := Load(context.Background(), dir, Options{Memory: 20_000})
	want := "3 images of 40×30×3 need 43 kB, more than the 20 kB there is room for: load them at 27x20 or smaller (--size, the Dataset panel's Size) or in grey (--gray)"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("err = %v\nwant it to end %q", err, want)
	}
	if _, err := Load(context.Background(), dir, Options{Memory: 43_200}); err != nil {
		t.Fatalf("exactly enough memory: %v", err)
	}
	// The run after the load counts too, and its own advice comes last.
	run := func(n int, size image.Point, channels int) (int64, string, string) {
		return int64(n*size.X*size.Y*channels) * 6, "for the PCA", "with fewer PCA components"
	}
	_, err = Load(context.Background(), dir, Options{Memory: 100_000, RunMemory: run})
	want = "3 images of 40×30×3 need 106 kB (43 kB of pixels, 64 kB for the PCA), more than the 98 kB there is room for: load them at 38x29 or smaller (--size, the Dataset panel's Size) or in grey (--gray), or with fewer PCA components"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("err = %v\nwant it to end %q", err, want)
	}
	// A caller without a grey mode is not advised one; where nothing fits, it says so.
	_, err = Load(context.Background(), dir, Options{Memory: 1000, RunMemory: run, NoGray: true})
	want = "more than the 1 kB there is room for: even at 10x8 they would need 8 kB; load fewer images, or give it more memory (FEATURELAB_MEMORY), or with fewer PCA components"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("err = %v\nwant it to end %q", err, want)
	}
}

// TestShrinkKeepsFloatSamples: a PFM picture larger than the working size is reduced on
// its float samples, so values outside [0, 1] survive as their averages.
func TestShrinkKeepsFloatSamples(t *testing.T) {
	f := NewFloatImage(4, 2, 1)
	copy(f.Pix, []float32{-2, -2, 3, 3, -2, -2, 3, 3})
	out, ok := shrink(f, 2, 1).(*FloatImage)
	if !ok || out.W != 2 || out.H != 1 || out.Pix[0] != -2 || out.Pix[1] != 3 {
		t.Fatalf("shrink gave %+v", out)
	}
}

// TestSizeReason: the load says which common size it chose and why, counting the
// pictures reduced to the working budget (also by libjpeg-turbo's DCT scaling alone, at
// exactly 1/8) and those resampled.
func TestSizeReason(t *testing.T) {
	small := encodePNG(t, image.NewGray(image.Rect(0, 0, 64, 48)))
	square := encodePNG(t, image.NewGray(image.Rect(0, 0, 32, 32)))
	photo := encodeJPEG(t, shadedPhoto(2560, 1920)) // 1/8 of it is 320×240
	for _, tc := range []struct {
		name        string
		files       map[string][]byte
		opt         Options
		want        string
		wantResized int
	}{
		{"one size", map[string][]byte{"a.png": small, "b.png": small}, Options{},
			"64×48: the size of all 2 images", 0},
		{"mixed", map[string][]byte{"a.png": small, "b.png": small, "c.png": small, "d.png": square}, Options{},
			"64×48: the most common size (3 of 4 images); 1 resampled to it", 1},
		{"asked for", map[string][]byte{"a.png": small, "b.png": small, "c.png": small, "d.png": square}, Options{Width: 32, Height: 24},
			"32×24: the size asked for; 4 resampled to it", 4},
		{"camera", map[string][]byte{"a.jpg": photo, "b.jpg": photo}, Options{},
			"320×240: the size of all 2 images; 2 larger pictures (up to 2560×1920) were reduced to the working budget of 76\u202f800 pixels", 2},
		{"one camera picture", map[string][]byte{"a.jpg": photo, "b.png": small, "c.png": small}, Options{},
			"64×48: the most common size (2 of 3 images); 1 larger picture (2560×1920) was reduced to the working budget of 76\u202f800 pixels; 1 resampled to it", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			ds, err := Load(context.Background(), dir, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := ds.SizeReason(); got != tc.want {
				t.Errorf("reason %q\nwant   %q", got, tc.want)
			}
			if len(ds.Resized) != tc.wantResized {
				t.Errorf("%d resized %v, want %d", len(ds.Resized), ds.Resized, tc.wantResized)
			}
		})
	}
}
