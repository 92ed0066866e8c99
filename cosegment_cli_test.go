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

// TestCosegmentCommand: `featurelab cosegment --json` on four pictures, each two bands of
// a palette of three colours, finds the three, writes every picture's 16-bit label map
// and mean-colour segments and the overview, and prints the summary; without a folder it
// says how to call it, in one line.
func TestCosegmentCommand(t *testing.T) {
	palette := []color.NRGBA{{200, 30, 30, 255}, {30, 160, 40, 255}, {40, 60, 200, 255}}
	dir := t.TempDir()
	for i, pair := range [][2]int{{0, 1}, {1, 2}, {2, 0}, {0, 2}} {
		img := image.NewNRGBA(image.Rect(0, 0, 64, 48))
		for y := 0; y < 48; y++ {
			for x := 0; x < 64; x++ {
				img.SetNRGBA(x, y, palette[pair[x/32]])
			}
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, string(rune('a'+i))+".png"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"cosegment", "--json", "--out", out, dir}, &stdout, &stderr); code != 0 {
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
	if s.GlobalClusters != 3 || len(s.LocalClusters) != 4 || s.LocalClusters[0] != 2 || s.Iterations < 1 {
		t.Errorf("summary %+v", s)
	}
	f, err := os.Open(filepath.Join(out, "a", "labels.png"))
	if err != nil {
		t.Fatal(err)
	}
	labels, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := labels.(*image.Gray16); !ok {
		t.Errorf("labels.png is %T, want 16-bit grey", labels)
	}
	for _, p := range []string{filepath.Join("a", "segments.png"), "cosegments.png"} {
		if _, err := os.Stat(filepath.Join(out, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	stderr.Reset()
	if code := run([]string{"cosegment"}, &stdout, &stderr); code != 1 || bytes.Count(stderr.Bytes(), []byte("\n")) != 1 {
		t.Errorf("no folder: exit %d, %q", code, stderr.String())
	}
}
