package segmenting

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"featurelab/algorithms/cosegment"
	"featurelab/app/budget"
	"featurelab/app/jobs"
	"featurelab/app/pipeline"
	"featurelab/imgproc"
	"featurelab/internal/accuracy"
)

// adviceNumbers finds the numbers of what a refusal advises: the cell of "cells of 16 or
// larger", the size of "load them at 320x240"; nil when it does not advise it.
func adviceNumbers(advice, what string) []int {
	pattern := map[string]string{"cell": `cells of (\d+) or larger`, "size": `load them at (\d+)x(\d+)`}[what]
	m := regexp.MustCompile(pattern).FindStringSubmatch(advice)
	if m == nil {
		return nil
	}
	out := make([]int, len(m)-1)
	for i, s := range m[1:] {
		out[i], _ = strconv.Atoi(s)
	}
	return out
}

// TestCosegmentAdviceWorksWhenApplied: a co-segmentation that would take more memory
// than the budget leaves is refused in one line that names the need and the room; what
// it advises — larger cells, a smaller size — is applied and then fits, and where
// nothing would, it says fewer images or more memory. Both ways in: the window's, on
// images already loaded (the tabletop sample), and the command's, which loads a folder
// under the budget. Before, 2 000 images of 35×36 under 30 MB were advised cells of 16,
// then of 32, each refused with 1 MB of room.
func TestCosegmentAdviceWorksWhenApplied(t *testing.T) {
	accuracy.Check(t)
	ctx := context.Background()
	src := pipeline.Source{Sample: "tabletop"}
	ds, err := src.Load(ctx, imgproc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := imgproc.DataBytes(len(ds.Names), ds.Values())
	need := cosegment.Memory(len(ds.Names), ds.Width, ds.Height, cosegment.Options{})
	for _, room := range []int64{need / 2, need / 10, need / 100, 0} {
		t.Setenv(budget.Env, strconv.FormatInt(data+max(room, 1), 10))
		_, err = cosegmentData(ctx, src, ds, cosegment.Options{}, jobs.NewTracker(nil))
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "in cells of 8 needs") {
			t.Fatalf("room %d: error %v", room, err)
		}
		advice := err.Error()
		t.Log(advice)
		cell, size := adviceNumbers(advice, "cell"), adviceNumbers(advice, "size")
		if cell == nil && size == nil && !strings.Contains(advice, "fewer images") {
			t.Fatalf("room %d: nothing advised: %s", room, advice)
		}
		if cell != nil {
			if err := cosegmentFits(ds, cosegment.Options{Cell: cell[0]}); err != nil {
				t.Errorf("room %d: applied cells of %d: %v", room, cell[0], err)
			}
		}
		if size != nil {
			smaller, err := src.Load(ctx, imgproc.Options{Width: size[0], Height: size[1]})
			if err != nil {
				t.Fatal(err)
			}
			if err := cosegmentFits(smaller, cosegment.Options{}); err != nil {
				t.Errorf("room %d: applied %dx%d: %v", room, size[0], size[1], err)
			}
		}
		if room == need/2 {
			if cell == nil {
				t.Fatalf("half the room, and no larger cells advised: %s", advice)
			}
			if c, err := cosegmentData(ctx, src, ds, cosegment.Options{Cell: cell[0]}, jobs.NewTracker(nil)); err != nil || c.Result.K < 2 {
				t.Fatalf("cells of %d: %v", cell[0], err)
			}
		}
	}

	// The command: a folder of 200 pictures of 35×36 loaded under the budget.
	dir := t.TempDir()
	for i := range 200 {
		img := image.NewNRGBA(image.Rect(0, 0, 35, 36))
		for y := range 36 {
			for x := range 35 {
				img.SetNRGBA(x, y, color.NRGBA{uint8(i * 7), uint8(x * 7), uint8(y * 7), 255})
			}
		}
		accuracy.WriteImage(t, filepath.Join(dir, fmt.Sprintf("%03d.png", i)), img)
	}
	for _, limit := range []string{"3M", "2M", "1M", "100K"} {
		t.Setenv(budget.Env, limit)
		_, err := Cosegment(ctx, pipeline.Source{Dir: dir}, imgproc.Options{}, cosegment.Options{}, "", nil)
		if err == nil || !strings.Contains(err.Error(), "there is room for") || strings.Contains(err.Error(), "grey") {
			t.Fatalf("%s: error %v", limit, err)
		}
		advice := err.Error()
		t.Log(advice)
		cell, size := adviceNumbers(advice, "cell"), adviceNumbers(advice, "size")
		if cell == nil && size == nil && !strings.Contains(advice, "fewer images") {
			t.Fatalf("%s: nothing advised: %s", limit, advice)
		}
		if cell != nil {
			if _, err := Cosegment(ctx, pipeline.Source{Dir: dir}, imgproc.Options{}, cosegment.Options{Cell: cell[0]}, "", nil); err != nil {
				t.Errorf("%s: applied cells of %d: %v", limit, cell[0], err)
			}
		}
		if size != nil {
			if _, err := Cosegment(ctx, pipeline.Source{Dir: dir}, imgproc.Options{Width: size[0], Height: size[1]}, cosegment.Options{}, "", nil); err != nil {
				t.Errorf("%s: applied %dx%d: %v", limit, size[0], size[1], err)
			}
		}
	}
}

// TestCosegmentOutputsNeverCollide: images that differ only in their extension, or whose
// name without it is the overview's, get folders of their own; and a folder of a.png,
// a.jpg and cosegments.png.png writes three results and the overview, none replacing
// another.
func TestCosegmentOutputsNeverCollide(t *testing.T) {
	tests := []struct{ names, want []string }{
		{[]string{"a.png", "b.jpg", "sub/c.png"}, []string{"a", "b", "sub/c"}},
		{[]string{"a.jpg", "a.png", "b.png"}, []string{"a.jpg", "a.png", "b"}},
		{[]string{"cosegments.png.png", "x.png"}, []string{"cosegments.png.png", "x"}},
		{[]string{"a", "a.png", "a.png.jpg"}, []string{"a", "a.png", "a.png.jpg"}},
		{[]string{".png", "b.png"}, []string{".png", "b"}},
	}
	for _, tc := range tests {
		if got := OutputFolders(tc.names); !slices.Equal(got, tc.want) {
			t.Errorf("%v: folders %v, want %v", tc.names, got, tc.want)
		}
	}

	dir := t.TempDir()
	src := filepath.Join(dir, "images")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	photo := func(seed uint8) image.Image {
		img := image.NewNRGBA(image.Rect(0, 0, 48, 32))
		for y := 0; y < 32; y++ {
			for x := 0; x < 48; x++ {
				img.Set(x, y, color.NRGBA{uint8(x * 5), seed + uint8(y*7), uint8(x * y), 255})
			}
		}
		return img
	}
	for i, name := range []string{"a.png", "a.jpg", "cosegments.png.png"} {
		f, err := os.Create(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".jpg") {
			err = jpeg.Encode(f, photo(uint8(40*i)), nil)
		} else {
			err = png.Encode(f, photo(uint8(40*i)))
		}
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	c, err := Cosegment(context.Background(), pipeline.Source{Dir: src}, imgproc.Options{}, cosegment.Options{}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := c.WriteOutputs(out); err != nil {
		t.Fatalf("writing: %v", err)
	}
	for _, want := range []string{"a.png/labels.png", "a.jpg/labels.png", "cosegments.png.png/segments.png", "cosegments.png"} {
		if st, err := os.Stat(filepath.Join(out, want)); err != nil || !st.Mode().IsRegular() {
			t.Errorf("%s: %v", want, err)
		}
	}
}
