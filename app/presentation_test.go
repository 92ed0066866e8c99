package app

import (
	"context"
	"image"
	"testing"

	"featurelab/algorithms"
	"featurelab/imgproc"
)

// TestPresentationReconstructions checks the shortcut of Present — one reconstruction
// per distinct code, a block of codes at a time — against each image reconstructed on
// its own, and that the thumbnails kept from a window's load are the ones shown.
func TestPresentationReconstructions(t *testing.T) {
	p, err := Prepare(context.Background(), Request{Source: Source{Sample: "dice"}, PCA: 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kept := Thumbnails(p.Data)
	p.keepThumbnails(kept)
	a, err := p.Run(context.Background(), "kmeans", algorithms.Options{K: 5, Restarts: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pres := a.Present()
	if len(pres.Recon) != len(p.Data.Names) {
		t.Fatalf("%d reconstructions for %d images", len(pres.Recon), len(p.Data.Names))
	}
	for i := range pres.Recon {
		want := imgproc.Thumbnail(a.Reconstruction(i), ThumbnailSize)
		if d := maxPixelDiff(pres.Recon[i], want); d > 1 {
			t.Fatalf("image %d: reconstruction differs by %d levels from the direct one", i, d)
		}
		if pres.Thumbs[i] != kept[i] {
			t.Fatalf("image %d: thumbnail rendered again instead of the kept one", i)
		}
	}
}

// maxPixelDiff is the largest difference of any 8-bit channel of a and b (255 when the
// sizes differ).
func maxPixelDiff(a, b image.Image) int {
	if a.Bounds() != b.Bounds() {
		return 255
	}
	worst := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c1 := [4]uint32{}
			c2 := [4]uint32{}
			c1[0], c1[1], c1[2], c1[3] = a.At(x, y).RGBA()
			c2[0], c2[1], c2[2], c2[3] = b.At(x, y).RGBA()
			for k := range c1 {
				d := int(c1[k]>>8) - int(c2[k]>>8)
				worst = max(worst, d, -d)
			}
		}
	}
	return worst
}
