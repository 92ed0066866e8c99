package cli

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"featurelab/internal/accuracy"
)

func TestSegmentWritesOutputsAndSummary(t *testing.T) {
	dir := t.TempDir()
	img := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	for y := 0; y < 30; y++ {
		for x := 0; x < 40; x++ {
			c := color.NRGBA{200, 30, 30, 255}
			if x >= 20 {
				c = color.NRGBA{30, 30, 200, 255}
			}
			img.Set(x, y, c)
		}
	}
	in := filepath.Join(dir, "two.png")
	accuracy.WriteImage(t, in, img)
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"segment", in, "--json", "--iters", "30", "--truncation", "6", "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var s struct {
		Segments, Iterations, Width, Height int
		Seconds                             float64
	}
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Width != 40 || s.Height != 30 || s.Segments < 2 || s.Iterations < 1 {
		t.Fatalf("summary %+v", s)
	}
	lf, err := os.Open(filepath.Join(out, "labels.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	labels, err := png.Decode(lf)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := labels.(*image.Gray16); !ok {
		t.Fatalf("labels.png is %T, want 16-bit grey", labels)
	}
	for _, name := range []string{"segments.png", "boundaries.png"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Fatal(err)
		}
	}
	if code := Run([]string{"segment", filepath.Join(dir, "missing.png")}, &stdout, &stderr); code == 0 {
		t.Fatal("a missing image must fail")
	}
}

// TestSegmentEvalScoresAgainstHumanMaps: a photo scored against its own segmentation as
// the "human" map agrees on every pixel pair (PRI 1, VoI 0), segmented again with the
// same flags or given as a label map (--labels); the table ends with the mean, and a
// wrong call is one line.
func TestSegmentEvalScoresAgainstHumanMaps(t *testing.T) {
	dir := t.TempDir()
	photos, truth, labels := filepath.Join(dir, "images"), filepath.Join(dir, "truth"), filepath.Join(dir, "labels")
	for _, d := range []string{photos, truth, labels} {
		os.Mkdir(d, 0o755)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	for y := range 30 {
		for x := range 40 {
			c := color.NRGBA{200, 30, 30, 255}
			if x >= 20 {
				c = color.NRGBA{30, 30, 200, 255}
			}
			img.Set(x, y, c)
		}
	}
	accuracy.WriteImage(t, filepath.Join(photos, "two.png"), img)
	flags := []string{"--iters", "30", "--truncation", "6"}
	var stdout, stderr bytes.Buffer
	out := filepath.Join(dir, "out")
	if code := Run(append([]string{"segment", filepath.Join(photos, "two.png"), "--out", out}, flags...), &stdout, &stderr); code != 0 {
		t.Fatalf("segment: exit %d: %s", code, stderr.String())
	}
	own, err := os.ReadFile(filepath.Join(out, "labels.png"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(truth, "two_1.png"), own, 0o644)
	os.WriteFile(filepath.Join(labels, "two.png"), own, 0o644)

	for _, extra := range [][]string{flags, {"--labels", labels}} {
		stdout.Reset()
		stderr.Reset()
		args := append(append([]string{"segment-eval", "--json"}, extra...), photos, truth)
		if code := Run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr.String())
		}
		var rep struct {
			Mean struct {
				PRI     float64 `json:"pri"`
				VoIBits float64 `json:"voi_bits"`
			}
			Images []json.RawMessage
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Images) != 1 || rep.Mean.PRI != 1 || rep.Mean.VoIBits != 0 {
			t.Errorf("%v: %d images, PRI %v, VoI %v; want 1, 1, 0", extra, len(rep.Images), rep.Mean.PRI, rep.Mean.VoIBits)
		}
	}
	stdout.Reset()
	if code := Run([]string{"segment-eval", "--labels", labels, photos, truth}, &stdout, &stderr); code != 0 ||
		!bytes.Contains(stdout.Bytes(), []byte("mean of 1")) || !bytes.Contains(stdout.Bytes(), []byte("VoI (bits)")) {
		t.Errorf("table: exit %d\n%s", code, stdout.String())
	}
	stderr.Reset()
	if code := Run([]string{"segment-eval", photos}, &stdout, &stderr); code != 1 || bytes.Count(stderr.Bytes(), []byte("\n")) != 1 {
		t.Errorf("one folder: exit %d, %q", code, stderr.String())
	}
}
