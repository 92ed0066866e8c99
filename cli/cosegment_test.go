package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"featurelab/algorithms/partition"
)

// TestCosegmentCommand: `featurelab cosegment --json` with its default (proposed)
// penalties on ten pictures built from one palette of six colours — each two to four
// flat bands of some of them and a rectangle across them, edges off the cells' grid,
// with noise of 6 grey levels — finds the six colours as six
// global clusters, the pooled labels of its labels.png files matching the palette with
// NMI ≥ 0.95; it writes every picture's 16-bit label map and mean-colour segments and the
// overview, and prints the summary; without a folder it says how to call it, in one
// line.
func TestCosegmentCommand(t *testing.T) {
	palette := []color.NRGBA{
		{200, 30, 30, 255}, {30, 160, 40, 255}, {40, 60, 200, 255},
		{230, 220, 60, 255}, {240, 240, 240, 255}, {40, 40, 40, 255},
	}
	// 100 × 70: band and rectangle edges fall inside cells of 8, as in any photo.
	const w, h = 100, 70
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var truth []int32
	names := make([]string, 10)
	for i := range names {
		names[i] = fmt.Sprintf("p%02d", i)
		cols := rng.Perm(len(palette))[:2+rng.IntN(3)]
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := cols[x*len(cols)/w]
				if y >= 13 && y < 47 && x >= 21 && x < 59 {
					c = cols[len(cols)-1] // a rectangle across the bands
				}
				p := palette[c]
				jit := func(v uint8) uint8 { return uint8(min(max(float64(v)+6*rng.NormFloat64(), 0), 255)) }
				img.SetNRGBA(x, y, color.NRGBA{jit(p.R), jit(p.G), jit(p.B), 255})
				truth = append(truth, int32(c))
			}
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, names[i]+".png"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"cosegment", "--json", "--out", out, dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var s struct {
		GlobalClusters int   `json:"global_clusters"`
		LocalClusters  []int `json:"local_clusters"`
		Iterations     int   `json:"iterations"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		t.Fatalf("summary: %v\n%s", err, stdout.String())
	}
	if s.GlobalClusters != len(palette) || len(s.LocalClusters) != len(names) || s.Iterations < 1 {
		t.Errorf("summary %+v", s)
	}
	var got []int32
	for _, name := range names {
		f, err := os.Open(filepath.Join(out, name, "labels.png"))
		if err != nil {
			t.Fatal(err)
		}
		labels, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		g, ok := labels.(*image.Gray16)
		if !ok {
			t.Fatalf("labels.png is %T, want 16-bit grey", labels)
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				got = append(got, int32(g.Gray16At(x, y).Y))
			}
		}
	}
	nmi := partition.NMI(got, truth)
	t.Logf("%d global clusters, NMI %.4f against the palette", s.GlobalClusters, nmi)
	if nmi < 0.95 {
		t.Errorf("NMI %.4f against the palette, want ≥ 0.95", nmi)
	}
	for _, p := range []string{filepath.Join(names[0], "segments.png"), "cosegments.png"} {
		if _, err := os.Stat(filepath.Join(out, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	stderr.Reset()
	if code := Run([]string{"cosegment"}, &stdout, &stderr); code != 1 || bytes.Count(stderr.Bytes(), []byte("\n")) != 1 {
		t.Errorf("no folder: exit %d, %q", code, stderr.String())
	}
}
