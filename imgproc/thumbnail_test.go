package imgproc

import (
	"context"
	"image"
	"image/color"
	"math"
	"slices"
	"testing"
)

func TestThumbnail(t *testing.T) {
	tests := []struct {
		name      string
		w, h, max int
		want      image.Point
	}{
		{"landscape shrinks", 320, 240, 120, image.Pt(120, 90)},
		{"portrait shrinks", 222, 323, 100, image.Pt(68, 100)},
		{"dice enlarges by a whole factor", 14, 14, 120, image.Pt(112, 112)},
		{"just fits", 120, 60, 120, image.Pt(120, 60)},
		{"zero box", 10, 10, 0, image.Pt(0, 0)},
	}
	for _, tt := range tests {
		got := Thumbnail(imageOfSize(tt.w, tt.h), tt.max).Bounds().Size()
		if got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	// Enlarging keeps pixels crisp: every 8×8 block of a 14×14 picture at 112 is one colour.
	small := imageOfSize(14, 14)
	big := Thumbnail(small, 112)
	if big.At(0, 0) != big.At(7, 7) || big.At(8, 0) != small.At(1, 0) {
		t.Error("enlarged thumbnail is smoothed")
	}
}

// TestPreviewThumbnailMatchesTheLoadedImage checks that the thumbnails a window shows
// from the decoded pictures are those of the data set it gets afterwards: the same size,
// the same colours within JPEG's rounding (the loader converts YCbCr itself), grey when
// the data set is grey, transparent parts on white.
func TestPreviewThumbnailMatchesTheLoadedImage(t *testing.T) {
	dir := t.TempDir()
	writeBadFolder(t, dir)
	clear := image.NewNRGBA(image.Rect(0, 0, 32, 24))
	for i := range clear.Pix {
		clear.Pix[i] = uint8(i)
	}
	clear.SetNRGBA(0, 0, color.NRGBA{R: 10, G: 20, B: 30, A: 0})
	writeFiles(t, dir, map[string][]byte{
		"clear.png": encodePNG(t, clear),
		"wide.png":  encodePNG(t, imageOfSize(40, 10)),
	})
	for _, mode := range []ColorMode{ColorAuto, ColorGray} {
		var previews []image.Image
		ds, err := Load(context.Background(), dir, Options{Color: mode, Decoded: func(shape *Dataset, pictures []image.Image) {
			for _, p := range pictures {
				previews = append(previews, PreviewThumbnail(p, shape, 120))
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		for i, name := range ds.Names {
			got, want := previews[i], Thumbnail(ds.Image(i), 120)
			if got.Bounds() != want.Bounds() {
				t.Errorf("mode %d, %s: preview %v, loaded thumbnail %v", mode, name, got.Bounds(), want.Bounds())
				continue
			}
			if _, grey := got.(*image.Gray); grey != (ds.Channels == 1) {
				t.Errorf("mode %d, %s: preview is %T for a data set of %d channels", mode, name, got, ds.Channels)
			}
			if name == "wide.png" {
				continue // resampled to 32×24 by the loader, stretched in one step here
			}
			if d := maxChannelDifference(got, want); d > 3 {
				t.Errorf("mode %d, %s: preview differs from the loaded thumbnail by %d levels", mode, name, d)
			}
		}
	}
}

// maxChannelDifference is the largest difference of an 8-bit channel between a and b.
func maxChannelDifference(a, b image.Image) int {
	worst := 0
	bounds := a.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			for _, d := range []int{int(ar>>8) - int(br>>8), int(ag>>8) - int(bg>>8), int(ab>>8) - int(bb>>8)} {
				worst = max(worst, d, -d)
			}
		}
	}
	return worst
}

// TestShrinkToThumbnail checks the float shrink against Thumbnail on the same picture,
// its linearity (what lets PCA components be shrunk instead of every reconstruction),
// and that a picture that fits is left alone.
func TestShrinkToThumbnail(t *testing.T) {
	for _, size := range []image.Point{{320, 240}, {222, 323}, {130, 20}} {
		a := ImageToVector(imageOfSize(size.X, size.Y), false)
		b := slices.Clone(a) // another picture: a turned upside down
		slices.Reverse(b)

		got, tw, th := ShrinkToThumbnail(a, size.X, size.Y, 3, 120)
		want := Thumbnail(VectorToImage(a, size.X, size.Y, 3), 120)
		if want.Bounds() != image.Rect(0, 0, tw, th) {
			t.Fatalf("%v: shrunk to %d×%d, Thumbnail gives %v", size, tw, th, want.Bounds())
		}
		if d := maxChannelDifference(VectorToImage(got, tw, th, 3), want); d > 1 {
			t.Errorf("%v: shrunk picture differs from Thumbnail by %d levels", size, d)
		}

		// Two pictures side by side as 6 channels: each half shrinks as on its own, and
		// 2a − b shrinks to 2·shrink(a) − shrink(b).
		both := make([]float64, 2*len(a))
		mix := make([]float64, len(a))
		for p := 0; p < len(a)/3; p++ {
			copy(both[6*p:], a[3*p:3*p+3])
			copy(both[6*p+3:], b[3*p:3*p+3])
		}
		for i := range a {
			mix[i] = 2*a[i] - b[i]
		}
		sb, _, _ := ShrinkToThumbnail(both, size.X, size.Y, 6, 120)
		sa, _, _ := ShrinkToThumbnail(b, size.X, size.Y, 3, 120)
		sm, _, _ := ShrinkToThumbnail(mix, size.X, size.Y, 3, 120)
		for p := 0; p < tw*th; p++ {
			for k := 0; k < 3; k++ {
				if d := sb[6*p+k] - got[3*p+k]; math.Abs(d) > 1e-12 {
					t.Fatalf("%v: a picture among others shrinks differently (%g)", size, d)
				}
				if d := sb[6*p+3+k] - sa[3*p+k]; math.Abs(d) > 1e-12 {
					t.Fatalf("%v: the second picture shrinks differently (%g)", size, d)
				}
				if d := sm[3*p+k] - (2*got[3*p+k] - sa[3*p+k]); math.Abs(d) > 1e-12 {
					t.Fatalf("%v: shrinking is not linear (%g)", size, d)
				}
			}
		}
	}
	small := ImageToVector(imageOfSize(14, 14), false)
	if got, w, h := ShrinkToThumbnail(small, 14, 14, 3, 120); w != 14 || h != 14 || &got[0] != &small[0] {
		t.Errorf("a 14×14 picture was shrunk to %d×%d; it fits", w, h)
	}
}
