package segmenting

import (
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"featurelab/algorithms/cosegment"
	"featurelab/app/pipeline"
	"featurelab/imgproc"
)

// TestCosegmentRefusesWhatDoesNotFit: a co-segmentation that would take more memory than
// the budget leaves beside the loaded images is refused in one line that names the need,
// the room and what to change, before anything is clustered; with larger cells it runs.
func TestCosegmentRefusesWhatDoesNotFit(t *testing.T) {
	src := pipeline.Source{Sample: "tabletop"}
	ds, err := src.Load(context.Background(), imgproc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	need := cosegment.Memory(len(ds.Names), ds.Width, ds.Height, cosegment.Options{})
	room := need / 2
	t.Setenv(pipeline.MemoryEnv, strconv.FormatInt(imgproc.DataBytes(len(ds.Names), ds.Values())+room, 10))
	_, err = cosegmentData(context.Background(), src, ds, cosegment.Options{}, pipeline.NewTracker(nil))
	if err == nil || strings.Count(err.Error(), "\n") > 0 ||
		!strings.Contains(err.Error(), "in cells of 8 needs") || !strings.Contains(err.Error(), "use cells of 16") {
		t.Fatalf("error %v", err)
	}
	c, err := cosegmentData(context.Background(), src, ds, cosegment.Options{Cell: 16}, pipeline.NewTracker(nil))
	if err != nil || c.Result.K < 2 {
		t.Fatalf("cells of 16: %v", err)
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
	c, err := Cosegment(context.Background(), pipeline.Source{Dir: src}, imgproc.Options{}, cosegment.Options{}, nil)
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
