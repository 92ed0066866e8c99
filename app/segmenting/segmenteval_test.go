package segmenting

import (
	"context"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"featurelab/algorithms/segment"
	"featurelab/app/jobs"
	"featurelab/internal/accuracy"
)

// TestEvaluate scores a photo of two halves, red and blue, against two human maps: the
// two halves, and the whole as one segment. The halves agree on every pair with the
// first and on the 2·C(24, 2) = 552 pairs of C(48, 2) = 1128 they join with the second,
// so PRI = (1 + 552/1128)/2; VoI is 0 and 1 bit, 0.5 on average. K-means with K = 2
// finds the halves; a label map of them given with LabelsDir scores the same. A photo
// without a human map is skipped, saying so. Only the KPYP reports a variational bound.
func TestEvaluate(t *testing.T) {
	root := t.TempDir()
	photos, truth, labels := filepath.Join(root, "images"), filepath.Join(root, "truth"), filepath.Join(root, "labels")
	for _, d := range []string{photos, truth, labels} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	halves := image.NewGray16(image.Rect(0, 0, 8, 6))
	whole := image.NewGray16(image.Rect(0, 0, 8, 6))
	photo := image.NewRGBA(image.Rect(0, 0, 8, 6))
	for y := range 6 {
		for x := range 8 {
			whole.SetGray16(x, y, color.Gray16{Y: 1})
			if x < 4 {
				halves.SetGray16(x, y, color.Gray16{Y: 1})
				photo.Set(x, y, color.RGBA{200, 20, 20, 255})
			} else {
				halves.SetGray16(x, y, color.Gray16{Y: 2})
				photo.Set(x, y, color.RGBA{20, 20, 200, 255})
			}
		}
	}
	writePNGs(t, map[string]image.Image{
		filepath.Join(photos, "a.png"): photo, filepath.Join(photos, "b.png"): photo,
		filepath.Join(truth, "a_1.png"): halves, filepath.Join(truth, "a_2.png"): whole,
		filepath.Join(labels, "a.png"): halves,
	})
	wantPRI := (1 + 552.0/1128) / 2
	for _, req := range []EvalRequest{
		{ImagesDir: photos, TruthDir: truth, Options: segment.Options{Method: segment.MethodKMeans, K: 2, Seed: 1}},
		{ImagesDir: photos, TruthDir: truth, LabelsDir: labels},
	} {
		var reported int
		rep, err := Evaluate(context.Background(), req, func(jobs.Progress) { reported++ })
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Images) != 1 || reported == 0 || len(rep.Skipped) != 1 || rep.Skipped[0].Path != "b.png" {
			t.Fatalf("%s: scored %v, skipped %v", rep.Method, rep.Images, rep.Skipped)
		}
		s := rep.Mean
		if math.Abs(s.PRI-wantPRI) > 1e-12 || math.Abs(s.VoIBits-0.5) > 1e-12 ||
			math.Abs(s.VoINats-0.5*math.Ln2) > 1e-12 || s.Segments != 2 || s.Truths != 2 {
			t.Errorf("%s: %+v, want PRI %v, VoI 0.5 bits, 2 segments", rep.Method, s, wantPRI)
		}
		if b := rep.Images[0].Bound; b != 0 {
			t.Errorf("%s reports a variational bound %v", rep.Method, b)
		}
	}
	// The KPYP reports its final bound, so runs with other seeds can be compared by it.
	rep, err := Evaluate(context.Background(), EvalRequest{ImagesDir: photos, TruthDir: truth, Options: segment.Options{Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := rep.Images[0].Bound; b == 0 || math.IsNaN(b) || math.IsInf(b, 0) {
		t.Errorf("kpyp: final bound %v", b)
	}
	if _, err := Evaluate(context.Background(), EvalRequest{ImagesDir: photos, TruthDir: labels}, nil); err == nil {
		t.Error("a folder without any human segmentation was evaluated")
	}
}

// TestEvaluateRefusesOtherSizes: a photo whose human maps are of another size (a
// full-size camera copy of a BSDS photo) is refused before it is segmented — the
// segmenter here would fail on its Method if it ran — and the error names the sizes,
// not a missing human map.
func TestEvaluateRefusesOtherSizes(t *testing.T) {
	root := t.TempDir()
	photos, truth := filepath.Join(root, "images"), filepath.Join(root, "truth")
	for _, d := range []string{photos, truth} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writePNGs(t, map[string]image.Image{
		filepath.Join(photos, "a.png"):  image.NewRGBA(image.Rect(0, 0, 16, 12)),
		filepath.Join(truth, "a_1.png"): image.NewGray16(image.Rect(0, 0, 8, 6)),
	})
	_, err := Evaluate(context.Background(), EvalRequest{ImagesDir: photos, TruthDir: truth,
		Options: segment.Options{Method: "not a method"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "a.png: the photo is 16×12, its human segmentations 8×6") {
		t.Errorf("err %v, want the photo's and the human maps' sizes", err)
	}
}

// writePNGs writes each image as a PNG at its path.
func writePNGs(t *testing.T, files map[string]image.Image) {
	t.Helper()
	for path, img := range files {
		accuracy.WriteImage(t, path, img)
	}
}
