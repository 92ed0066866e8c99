package pipeline_test

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"featurelab/app/pipeline"
	"featurelab/imgproc"
	"featurelab/internal/accuracy"
)

// writeTiles writes n PNG pictures of size into dir, each a gradient of its own, in
// colour or grey.
func writeTiles(t *testing.T, dir string, n int, size image.Point, colour bool) {
	t.Helper()
	for i := range n {
		img := image.NewNRGBA(image.Rect(0, 0, size.X, size.Y))
		for y := range size.Y {
			for x := range size.X {
				v := uint8(i*7 + x*5 + y*3)
				c := color.NRGBA{v, v, v, 255}
				if colour {
					c = color.NRGBA{uint8(i * 7), uint8(x * 7), uint8(y * 7), 255}
				}
				img.SetNRGBA(x, y, c)
			}
		}
		accuracy.WriteImage(t, filepath.Join(dir, fmt.Sprintf("%04d.png", i)), img)
	}
}

// TestMemoryAdviceWorksWhenApplied loads real folders under a memory budget, takes what
// the refusal advises — a size, grey, grey at a size — and loads again with it: the
// load and its PCA then run. Before, 2 000 images of 35×36 under 50 MB were advised
// 31x31, then 29x30, then 29x29, each refused in turn. Where not even the smallest size
// fits, the refusal must say fewer images or more memory and advise no size.
func TestMemoryAdviceWorksWhenApplied(t *testing.T) {
	accuracy.Check(t)
	if testing.Short() {
		t.Skip("loads a folder of 2 000 pictures several times")
	}
	// The PCA's estimate counts a block per core: the same advice on any machine.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	folders := map[string]string{}
	var once sync.Mutex
	folder := func(n int, size image.Point, colour bool) string {
		once.Lock()
		defer once.Unlock()
		key := fmt.Sprint(n, size, colour)
		if folders[key] == "" {
			folders[key] = t.TempDir()
			writeTiles(t, folders[key], n, size, colour)
		}
		return folders[key]
	}
	tests := []struct {
		n        int
		size     image.Point
		colour   bool
		gray     bool // --gray given
		budget   int64
		wantSize bool // a size is advised (else: fewer images or more memory)
	}{
		{2000, image.Pt(35, 36), true, false, 50 << 20, true}, // the case
		{2000, image.Pt(35, 36), true, false, 30 << 20, true}, // fits at 15×15 and 10×10, not 12×12
		{2000, image.Pt(35, 36), true, true, 25 << 20, true},
		{2000, image.Pt(35, 36), true, false, 4 << 20, false},
		{300, image.Pt(64, 48), true, false, 6 << 20, true},
		{300, image.Pt(64, 48), true, false, 8 << 20, true},
		{300, image.Pt(64, 48), false, false, 12 << 20, true},
		{300, image.Pt(64, 48), false, false, 9 << 20, true},
		{300, image.Pt(64, 48), false, false, 1 << 20, false},
	}
	sizeAfter := func(advice, before string) (image.Point, bool) {
		m := regexp.MustCompile(regexp.QuoteMeta(before) + ` (\d+)x(\d+)`).FindStringSubmatch(advice)
		if m == nil {
			return image.Point{}, false
		}
		w, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		return image.Pt(w, h), true
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%d images of %v colour %v gray %v in %d kB", tt.n, tt.size, tt.colour, tt.gray, tt.budget>>10)
		t.Run(name, func(t *testing.T) {
			dir := folder(tt.n, tt.size, tt.colour)
			load := imgproc.Options{Width: tt.size.X, Height: tt.size.Y, Memory: tt.budget}
			if tt.gray {
				load.Color = imgproc.ColorGray
			}
			prepare := func(load imgproc.Options) error {
				_, err := pipeline.Prepare(context.Background(), pipeline.Request{Source: pipeline.Source{Dir: dir}, Load: load, PCA: pipeline.DefaultPCA}, nil)
				return err
			}
			err := prepare(load)
			if err == nil || !strings.Contains(err.Error(), "there is room for") {
				t.Fatalf("not refused for memory: %v", err)
			}
			advice := err.Error()
			t.Log(advice)
			var tries []imgproc.Options
			if s, ok := sizeAfter(advice, "load them at"); ok {
				o := load
				o.Width, o.Height = s.X, s.Y
				tries = append(tries, o)
			}
			if s, ok := sizeAfter(advice, "in grey at"); ok {
				o := load
				o.Width, o.Height, o.Color = s.X, s.Y, imgproc.ColorGray
				tries = append(tries, o)
			}
			if strings.Contains(advice, "in grey (--gray)") {
				o := load
				o.Color = imgproc.ColorGray
				tries = append(tries, o)
			}
			if (len(tries) > 0) != tt.wantSize {
				t.Fatalf("advised %d ways, want a size %v: %s", len(tries), tt.wantSize, advice)
			}
			if len(tries) == 0 && !strings.Contains(advice, "fewer images") {
				t.Fatalf("nothing advised and no word of fewer images: %s", advice)
			}
			if (!tt.colour || tt.gray) && strings.Contains(advice, "grey") {
				t.Errorf("grey advised for a load already in grey: %s", advice)
			}
			for _, o := range tries {
				if err := prepare(o); err != nil {
					t.Errorf("%s\napplied as %dx%d colour mode %d: %v", advice, o.Width, o.Height, o.Color, err)
				}
			}
		})
	}
}
