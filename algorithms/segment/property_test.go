package segment

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"
)

// checkSegmentation returns what is wrong with a segmentation of a w×h image, or nil:
// one label per pixel, labels 0…Segments−1 all used and numbered in order of first
// appearance, a finite trace, and a finite mean colour in [0, 1] per segment.
func checkSegmentation(res *Result, w, h int) error {
	if res == nil {
		return fmt.Errorf("nil result without an error")
	}
	if res.Width != w || res.Height != h || len(res.Labels) != w*h {
		return fmt.Errorf("%d labels for %d×%d (result %d×%d)", len(res.Labels), w, h, res.Width, res.Height)
	}
	next := int32(0)
	for i, l := range res.Labels {
		switch {
		case l < 0 || l > next:
			return fmt.Errorf("label %d at pixel %d after labels 0…%d", l, i, next-1)
		case l == next:
			next++
		}
	}
	if int(next) != res.Segments || res.Segments < 1 {
		return fmt.Errorf("%d labels used, Segments = %d", next, res.Segments)
	}
	for _, b := range res.Bound {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return fmt.Errorf("trace holds %v", b)
		}
	}
	if len(res.Means) != res.Segments {
		return fmt.Errorf("%d means for %d segments", len(res.Means), res.Segments)
	}
	for s, m := range res.Means {
		for _, v := range m {
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("segment %d has mean colour %v", s, m)
			}
		}
	}
	return nil
}

// tinyImage paints a w×h image from fill(x, y).
func tinyImage(w, h int, fill func(x, y int) color.Color) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, fill(x, y))
		}
	}
	return img
}

// TestEverySegmenterOnTinyAndFlatImages is the segmenters' property sweep: 1×1, one row,
// one column, 2×2 and flat images, every method, with and without texture and learned
// locations, several seeds: a segmentation that keeps the invariants or an error,
// never a panic.
func TestEverySegmenterOnTinyAndFlatImages(t *testing.T) {
	black := func(x, y int) color.Color { return color.Black }
	grey := func(x, y int) color.Color { return color.Gray{Y: 128} }
	ramp := func(x, y int) color.Color { return color.RGBA{uint8(40 * x), uint8(60 * y), 90, 255} }
	halves := func(x, y int) color.Color {
		if x%2 == 0 {
			return color.RGBA{255, 0, 0, 255}
		}
		return color.RGBA{0, 0, 255, 255}
	}
	clear := func(x, y int) color.Color { return color.NRGBA{} }
	images := []struct {
		name string
		w, h int
		fill func(x, y int) color.Color
	}{
		{"1×1", 1, 1, ramp}, {"1×1 black", 1, 1, black}, {"1×7", 1, 7, ramp}, {"9×1", 9, 1, halves},
		{"2×2", 2, 2, halves}, {"3×3 ramp", 3, 3, ramp}, {"16×16 grey", 16, 16, grey},
		{"16×16 black", 16, 16, black}, {"12×5 transparent", 12, 5, clear}, {"20×20 halves", 20, 20, halves},
	}
	ok, errs := 0, 0
	for _, im := range images {
		img := tinyImage(im.w, im.h, im.fill)
		for _, method := range []string{MethodKPYP, MethodKMeans, MethodDPMeans} {
			for _, variant := range []Options{{}, {Texture: true}, {LearnLocations: true, LearnWidths: true, Cell: 1}, {K: 9, Truncation: 3}} {
				for seed := uint64(1); seed <= 2; seed++ {
					opt := variant
					opt.Method, opt.Seed, opt.MaxIter = method, seed, 20
					res, err := segmentSafely(img, opt)
					if err != nil {
						if strings.Contains(err.Error(), "panic") {
							t.Errorf("%s on %s %+v: %v", method, im.name, variant, err)
						}
						errs++
						continue
					}
					ok++
					if bad := checkSegmentation(res, im.w, im.h); bad != nil {
						t.Errorf("%s on %s %+v, seed %d: %v", method, im.name, variant, seed, bad)
					}
				}
			}
		}
	}
	t.Logf("%d segmentations kept their invariants, %d runs ended in an error", ok, errs)
}

// segmentSafely runs Segment and turns a panic into an error that says so.
func segmentSafely(img image.Image, opt Options) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return Segment(context.Background(), img, opt)
}

// FuzzSegment segments small images decoded from fuzz input — the first bytes choose the
// size (1…12 × 1…12), the method and options, the rest are the pixels — and checks the
// invariants or an error, never a panic.
func FuzzSegment(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 255, 0, 0})
	f.Add([]byte{5, 5, 1, 1, 10, 200, 30, 40, 50, 60})
	f.Add([]byte{11, 2, 2, 2, 0, 0, 0, 255, 255, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		w, h := 1+int(data[0]%12), 1+int(data[1]%12)
		methods := []string{MethodKPYP, MethodKMeans, MethodDPMeans}
		opt := Options{Method: methods[int(data[2])%3], MaxIter: 15, Seed: uint64(data[3]),
			Texture: data[3]&1 != 0, LearnLocations: data[3]&2 != 0, Cell: 1 + int(data[3]>>4)%4,
			K: 1 + int(data[2]>>2)%8, Truncation: 2 + int(data[2]>>5)}
		px := data[4:]
		img := tinyImage(w, h, func(x, y int) color.Color {
			if len(px) == 0 {
				return color.White
			}
			i := 3 * (y*w + x)
			return color.RGBA{px[i%len(px)], px[(i+1)%len(px)], px[(i+2)%len(px)], 255}
		})
		res, err := segmentSafely(img, opt)
		if err != nil {
			if strings.Contains(err.Error(), "panic") {
				t.Fatalf("%d×%d %+v: %v", w, h, opt, err)
			}
			return
		}
		if bad := checkSegmentation(res, w, h); bad != nil {
			t.Fatalf("%d×%d %+v: %v", w, h, opt, bad)
		}
	})
}
