package cosegment

import (
	"context"
	"image"
	"image/color"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"featurelab/algorithms/partition"
)

// testPalette is six colours far apart.
var testPalette = []color.NRGBA{
	{200, 30, 30, 255}, {30, 160, 40, 255}, {40, 60, 200, 255},
	{230, 220, 60, 255}, {240, 240, 240, 255}, {40, 40, 40, 255},
}

// paletteImages makes n images of w × h, each of 2 to 4 vertical bands of colours drawn
// from the palette (so every image uses a few of them), with Gaussian noise of sd noise
// (in 0…255), and the palette index of every pixel.
func paletteImages(seed uint64, n, w, h int, noise float64) ([]image.Image, [][]int32) {
	rng := rand.New(rand.NewPCG(seed, 3))
	var imgs []image.Image
	var truth [][]int32
	for i := 0; i < n; i++ {
		cols := rng.Perm(len(testPalette))[:2+rng.IntN(3)]
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		lab := make([]int32, w*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := cols[x*len(cols)/w]
				p := testPalette[c]
				jit := func(v uint8) uint8 { return uint8(min(max(float64(v)+noise*rng.NormFloat64(), 0), 255)) }
				img.SetNRGBA(x, y, color.NRGBA{jit(p.R), jit(p.G), jit(p.B), 255})
				lab[y*w+x] = int32(c)
			}
		}
		imgs = append(imgs, img)
		truth = append(truth, lab)
	}
	return imgs, truth
}

// TestCosegmentPalette: images built from one palette, each using a few of its colours,
// with small noise, co-segment with the default (proposed) penalties into one global
// cluster per palette colour, the pooled labels of all images matching the palette with
// NMI ≥ 0.95, each image with as many segments as colours it uses. (With noise of 15 in
// 0…255 the dark grey splits in two: in L*a*b* the noise of dark colours is large.)
func TestCosegmentPalette(t *testing.T) {
	for _, tc := range []struct {
		seed  uint64
		noise float64
	}{{1, 6}, {2, 6}, {3, 6}} {
		cosegmentPalette(t, tc.seed, tc.noise)
	}
}

func cosegmentPalette(t *testing.T, seed uint64, noise float64) {
	imgs, truth := paletteImages(seed, 10, 96, 80, noise)
	res, err := Cosegment(context.Background(), imgs, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got, want []int32
	for i := range imgs {
		got = append(got, res.Labels[i]...)
		want = append(want, truth[i]...)
	}
	nmi := partition.NMI(got, want)
	t.Logf("K = %d, NMI %.4f, λ_bottom %.3g, λ_top %.3g, local %v, images per cluster %v", res.K, nmi, res.LambdaLocal, res.LambdaGlobal, res.Local, res.Images)
	if res.K != len(testPalette) || nmi < 0.95 {
		t.Errorf("K = %d (want %d), NMI %.4f (want ≥ 0.95)", res.K, len(testPalette), nmi)
	}
	for i, lab := range truth {
		_, colours := partition.Compact(lab)
		if res.Local[i] != colours {
			t.Errorf("image %d: %d segments, %d colours", i, res.Local[i], colours)
		}
	}
}

// TestCosegmentWorkersAndBadInput: the same seed gives the same co-segmentation on 1 and 4
// workers; no images, an empty image or a cell of 0 pixels wide is one clear error.
func TestCosegmentWorkersAndBadInput(t *testing.T) {
	imgs, _ := paletteImages(4, 6, 30, 20, 20)
	a, err := Cosegment(context.Background(), imgs, Options{Seed: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Cosegment(context.Background(), imgs, Options{Seed: 2, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i := range imgs {
		if !slices.Equal(a.Labels[i], b.Labels[i]) {
			t.Fatalf("image %d labelled differently on 4 workers", i)
		}
	}
	if a.Penalised != b.Penalised || a.K != b.K {
		t.Errorf("1 worker: K %d, %v; 4 workers: K %d, %v", a.K, a.Penalised, b.K, b.Penalised)
	}
	for _, tc := range []struct {
		imgs []image.Image
		opt  Options
		want string
	}{
		{nil, Options{}, "no images"},
		{[]image.Image{image.NewNRGBA(image.Rect(0, 0, 0, 0))}, Options{}, "image 0 is empty"},
		{imgs, Options{Cell: -1}, "cell must be ≥ 1"},
		{imgs, Options{Divergence: "cosine"}, "divergence must be one of"},
	} {
		if _, err := Cosegment(context.Background(), tc.imgs, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.opt, err, tc.want)
		}
	}
}
