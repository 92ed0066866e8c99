package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
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
	f, _ := os.Create(in)
	png.Encode(f, img)
	f.Close()
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"segment", in, "--json", "--iters", "30", "--truncation", "6", "--out", out}, &stdout, &stderr); code != 0 {
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
	if code := run([]string{"segment", filepath.Join(dir, "missing.png")}, &stdout, &stderr); code == 0 {
		t.Fatal("a missing image must fail")
	}
}
