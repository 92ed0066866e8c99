package cosegment

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"featurelab/algorithms/internal/realdata"
	"featurelab/algorithms/partition"
	"featurelab/internal/accuracy"
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
	res, err := Cosegment(context.Background(), Slice(imgs), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var got, want []int32
	for i := range imgs {
		got = append(got, res.Labels(i)...)
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
	a, err := Cosegment(context.Background(), Slice(imgs), Options{Seed: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Cosegment(context.Background(), Slice(imgs), Options{Seed: 2, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i := range imgs {
		if !slices.Equal(a.CellLabels[i], b.CellLabels[i]) {
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
		if _, err := Cosegment(context.Background(), Slice(tc.imgs), tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.opt, err, tc.want)
		}
	}
}

// TestCosegmentTabletop: on the first 40 real tabletop photos (one camera, one table and
// wall, objects that come and go), with the default (proposed) penalties, the wall (the
// top quarter of every photo) is one global cluster in every photo, and a pixel position
// mostly has the same global cluster in every photo: 73 % of all pixels agree with their
// position's commonest cluster over the 40 photos, with 7 global clusters. With λ_top =
// λ_bottom, as proposed before, 46 % did, with 28 global clusters: the table's lit middle
// changed cluster from photo to photo.
func TestCosegmentTabletop(t *testing.T) {
	accuracy.Check(t)
	dir, err := realdata.Dir("tabletop")
	if err != nil {
		t.Skipf("real data set tabletop not here (%v); it lives in ../shared/data", err)
	}
	var imgs []image.Image
	for i := 1; i <= 40; i++ {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("Picture_%d.jpg", i)))
		if err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		imgs = append(imgs, img)
	}
	res, err := Cosegment(context.Background(), Slice(imgs), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	agree := positionAgreement(res)
	t.Logf("K = %d, λ_bottom %.4g, λ_top %.4g, agreement %.3f, images per cluster %v, %.2f s", res.K, res.LambdaLocal, res.LambdaGlobal, agree, res.Images, res.Seconds)
	if res.K > 10 || agree < 0.7 {
		t.Errorf("%d global clusters (want ≤ 10), %.3f of the pixels agree with their position's commonest cluster (want ≥ 0.7)", res.K, agree)
	}
	wall := -1
	for i := range res.Sizes {
		labels := res.Labels(i)
		w, h := res.Sizes[i].X, res.Sizes[i].Y
		count := make([]int, res.K)
		for _, g := range labels[:w*(h/4)] {
			count[g]++
		}
		g := slices.Index(count, slices.Max(count))
		if wall < 0 {
			wall = g
		}
		if share := float64(count[g]) / float64(w*(h/4)); g != wall || share < 0.8 {
			t.Errorf("photo %d: the wall is cluster %d on %.0f%% of its top quarter, cluster %d in photo 1", i+1, g, 100*share, wall)
		}
	}
}

// positionAgreement is the share of all pixels whose global cluster is their position's
// commonest over the images (all of one size).
func positionAgreement(res *Result) float64 {
	n := len(res.Labels(0))
	count := make([]int, n*res.K)
	for i := range res.Sizes {
		for p, g := range res.Labels(i) {
			count[p*res.K+int(g)]++
		}
	}
	agree := 0
	for p := 0; p < n; p++ {
		agree += slices.Max(count[p*res.K : (p+1)*res.K])
	}
	return float64(agree) / float64(n*len(res.Sizes))
}

// TestMemory: what Cosegment allocates in all, read from the runtime's counter, is
// within Memory's bound and more than half of it, on 1, 2 and 4 workers: three whole
// co-segmentations of 20 pictures of 320×240, so in the pass without the race detector.
func TestMemory(t *testing.T) {
	accuracy.Check(t)
	imgs, _ := paletteImages(1, 20, 320, 240, 6)
	for _, workers := range []int{1, 2, 4} {
		opt := Options{Seed: 1, Workers: workers}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Cosegment(context.Background(), Slice(imgs), opt); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		got, bound := int64(after.TotalAlloc-before.TotalAlloc), Memory(len(imgs), 320, 240, opt)
		t.Logf("%d workers: %d bytes allocated, bound %d", workers, got, bound)
		if got > bound || 2*got < bound {
			t.Errorf("%d workers: %d bytes allocated, outside the bound %d or more than twice below it", workers, got, bound)
		}
	}
}
