package imgproc

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

func TestLoadSkipsBadFilesWithReasons(t *testing.T) {
	dir := t.TempDir()
	writeBadFolder(t, dir)
	checkBadFolder(t, dir)
}

// TestLoadOneImageNamesIt checks that a folder of one usable picture is refused with an
// OneImageError naming that picture, so the window can offer to segment it.
func TestLoadOneImageNamesIt(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"sub/only.png": encodePNG(t, photo(0)), "notes.txt": []byte("hello")})
	_, err := Load(context.Background(), dir, Options{})
	var one *OneImageError
	if !errors.As(err, &one) || one.Name != "sub/only.png" {
		t.Fatalf("got %v, want a OneImageError for sub/only.png", err)
	}
	writeFiles(t, dir, map[string][]byte{"b.png": encodePNG(t, photo(1))})
	if _, err := Load(context.Background(), dir, Options{}); err != nil {
		t.Fatalf("two pictures: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	onlyBad := t.TempDir()
	writeFiles(t, onlyBad, map[string][]byte{"a.jpg": []byte("text"), "b.png": nil})
	one := t.TempDir()
	writeFiles(t, one, map[string][]byte{"a.png": encodePNG(t, photo(0)), "notes.txt": []byte("hello")})
	many := t.TempDir()
	writeFiles(t, many, map[string][]byte{"a.png": encodePNG(t, photo(0)), "b.png": encodePNG(t, photo(1))})
	file := filepath.Join(many, "a.png")
	tests := []struct {
		name string
		dir  string
		opt  Options
		want string
	}{
		{"missing", filepath.Join(onlyBad, "nope"), Options{}, "load " + filepath.Join(onlyBad, "nope") + ": no such folder"},
		{"a file", file, Options{}, "load " + file + ": not a folder"},
		{"only bad", onlyBad, Options{}, "load " + onlyBad + ": no usable images (2 skipped: a.jpg: not an image; b.png: empty file)"},
		{"empty", t.TempDir(), Options{}, "no usable images (the folder has no files)"},
		{"one image", one, Options{}, "load " + one + ": only 1 usable image (a.png); need at least 2 (1 skipped: notes.txt: not an image)"},
		{"width only", many, Options{Width: 10}, "width and height must both be positive or both be 0, got 10×0"},
		{"negative size", many, Options{Width: -1, Height: 5}, "width and height"},
		{"size over budget", many, Options{Width: 1000, Height: 1000, MaxPixels: 1000}, "size 1000×1000 exceeds the 0.001 MP budget"},
		{"negative budget", many, Options{MaxPixels: -1}, "pixel budget must be ≥ 0"},
		{"bad colour", many, Options{Color: 7}, "unknown colour mode 7"},
		{"all over budget", many, Options{MaxPixels: 100}, "32×24 pixels exceeds the 0.0001 MP budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := Load(context.Background(), tt.dir, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v (dataset %v), want an error containing %q", err, ds != nil, tt.want)
			}
		})
	}
}

func TestLoadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"samples/set/a.png":        {Data: encodePNG(t, photo(0))},
		"samples/set/sub/b.png":    {Data: encodePNG(t, photo(1))},
		"samples/set/truth.csv":    {Data: []byte("a.png,1\n")},
		"samples/set/.hidden.png":  {Data: []byte("ignored")},
		"samples/set/.git/HEAD":    {Data: []byte("ignored")},
		"samples/other/c.png":      {Data: encodePNG(t, photo(2))},
		"samples/set/sub/d_10.png": {Data: encodePNG(t, photo(3))},
		"samples/set/sub/d_9.png":  {Data: encodePNG(t, photo(4))},
	}
	ds, err := LoadFS(context.Background(), fsys, "samples/set", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.png", "sub/b.png", "sub/d_9.png", "sub/d_10.png"}; !equalStrings(ds.Names, want) {
		t.Errorf("names %v, want %v", ds.Names, want)
	}
	if len(ds.Skipped) != 1 || ds.Skipped[0] != (Skip{"truth.csv", "not an image"}) {
		t.Errorf("skipped %v, want only truth.csv (hidden files are ignored)", ds.Skipped)
	}
	if _, err := LoadFS(context.Background(), fsys, "samples/nope", Options{}); err == nil || err.Error() != "load samples/nope: no such folder" {
		t.Errorf("missing root: %v", err)
	}
	if _, err := LoadFS(context.Background(), fsys, "samples/set/a.png", Options{}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("file root: %v", err)
	}
}

// TestLoadSizes covers the common size: the most frequent one, ties to the first image in
// natural order, or the size asked for; the others are resampled and listed.
func TestLoadSizes(t *testing.T) {
	grey := func(w, h int, v uint8) []byte {
		img := image.NewGray(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = v
		}
		return encodePNG(t, img)
	}
	tests := []struct {
		name        string
		files       map[string][]byte
		opt         Options
		w, h        int
		resized     []string
		wantOrigins []image.Point
	}{
		{"most common", map[string][]byte{"a.png": grey(8, 6, 10), "b.png": grey(16, 12, 20), "c.png": grey(16, 12, 30)},
			Options{}, 16, 12, []string{"a.png"}, []image.Point{{8, 6}, {16, 12}, {16, 12}}},
		{"tie goes to the first", map[string][]byte{"img10.png": grey(16, 12, 10), "img9.png": grey(8, 6, 20)},
			Options{}, 8, 6, []string{"img10.png"}, []image.Point{{8, 6}, {16, 12}}},
		{"asked for", map[string][]byte{"a.png": grey(8, 6, 10), "b.png": grey(8, 6, 20)},
			Options{Width: 4, Height: 4}, 4, 4, []string{"a.png", "b.png"}, []image.Point{{8, 6}, {8, 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			ds, err := Load(context.Background(), dir, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if ds.Width != tt.w || ds.Height != tt.h || !equalStrings(ds.Resized, tt.resized) {
				t.Fatalf("size %d×%d resized %v, want %d×%d resized %v", ds.Width, ds.Height, ds.Resized, tt.w, tt.h, tt.resized)
			}
			for i, p := range tt.wantOrigins {
				if ds.OriginalSizes[i] != p {
					t.Errorf("original size %d = %v, want %v", i, ds.OriginalSizes[i], p)
				}
			}
			// A flat picture stays flat through the resampling (the weights sum to 1).
			for i := range ds.Names {
				row := ds.Vector(i)
				for _, v := range row {
					if math.Abs(v-row[0]) > 1e-12 {
						t.Fatalf("%s: flat picture resampled to %v and %v", ds.Names[i], row[0], v)
					}
				}
			}
		})
	}
}

func TestLoadTransparencyOnWhite(t *testing.T) {
	clear := image.NewNRGBA(image.Rect(0, 0, 4, 2)) // fully transparent
	half := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	for i := 0; i < len(half.Pix); i += 4 {
		copy(half.Pix[i:], []uint8{255, 0, 0, 51}) // red at alpha 0.2
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.png": encodePNG(t, clear), "b.png": encodePNG(t, half)})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Channels != 3 {
		t.Fatalf("%d channels, want 3 (b.png is pink)", ds.Channels)
	}
	for _, v := range ds.Vector(0) {
		if v != 1 {
			t.Fatalf("transparent pixel loaded as %v, want white", v)
		}
	}
	want := []float64{1, 0.8, 0.8} // 0.2·red + 0.8·white
	row := ds.Vector(1)
	for i, v := range row {
		if math.Abs(v-want[i%3]) > 1e-7 {
			t.Fatalf("red at alpha 0.2 loaded as %v, want %v", row[:3], want)
		}
	}
}

func TestLoadColourModes(t *testing.T) {
	greyRGB := image.NewNRGBA(image.Rect(0, 0, 4, 4)) // grey content stored as RGB
	for i := 0; i < len(greyRGB.Pix); i += 4 {
		v := uint8(i)
		copy(greyRGB.Pix[i:], []uint8{v, v, v, 255})
	}
	grey := image.NewGray(image.Rect(0, 0, 4, 4))
	colour := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for i := range colour.Pix {
		colour.Pix[i] = 255
	}
	colour.Pix[0] = 0 // one cyan pixel
	tests := []struct {
		name  string
		files map[string][]byte
		mode  ColorMode
		want  int
	}{
		{"auto grey", map[string][]byte{"a.png": encodePNG(t, grey), "b.png": encodePNG(t, greyRGB), "c.jpg": encodeJPEG(t, greyRGB)}, ColorAuto, 1},
		{"auto one colour", map[string][]byte{"a.png": encodePNG(t, grey), "b.png": encodePNG(t, colour)}, ColorAuto, 3},
		{"rgb", map[string][]byte{"a.png": encodePNG(t, grey), "b.png": encodePNG(t, grey)}, ColorRGB, 3},
		{"gray", map[string][]byte{"a.png": encodePNG(t, colour), "b.png": encodePNG(t, colour)}, ColorGray, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			ds, err := Load(context.Background(), dir, Options{Color: tt.mode})
			if err != nil {
				t.Fatal(err)
			}
			if ds.Channels != tt.want || ds.Values() != 16*tt.want {
				t.Fatalf("%d channels (%d columns), want %d", ds.Channels, ds.Values(), tt.want)
			}
		})
	}
	// Grey of a cyan pixel is its BT.601 luma.
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.png": encodePNG(t, colour), "b.png": encodePNG(t, colour)})
	ds, err := Load(context.Background(), dir, Options{Color: ColorGray})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := float64(ds.Row(0)[0]), 0.587+0.114; math.Abs(got-want) > 1e-7 {
		t.Errorf("luma of cyan = %v, want %v", got, want)
	}
	if got := float64(ds.Row(0)[1]); got != 1 {
		t.Errorf("luma of white = %v, want exactly 1", got)
	}
}

// TestLoadEXIFOrientation stores a 16×8 picture, red left half and blue right half, with
// EXIF orientation 6 ("turn 90° clockwise to view"): it must load as 8×16, red on top.
func TestLoadEXIFOrientation(t *testing.T) {
	data := withOrientation(encodeJPEG(t, redBlue(16, 8)), 6)
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.jpg": data, "b.jpg": data})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Width != 8 || ds.Height != 16 || ds.OriginalSizes[0] != image.Pt(8, 16) {
		t.Fatalf("orientation 6 gave %d×%d, want 8×16", ds.Width, ds.Height)
	}
	pic := ds.Image(0)
	top, bottom := pic.At(4, 2).(color.NRGBA), pic.At(4, 13).(color.NRGBA)
	if top.R < 200 || top.B > 60 || bottom.B < 200 || bottom.R > 60 {
		t.Errorf("top %v bottom %v: want red over blue", top, bottom)
	}
}

// withOrientation inserts an APP1 Exif segment holding one IFD entry, orientation o, after
// the SOI marker of a JPEG.
func withOrientation(jpg []byte, o byte) []byte {
	exif := []byte("Exif\x00\x00MM\x00*\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00")
	exif[6+8+2+8+1] = o // the SHORT value, big-endian, left-justified in its 4 bytes
	seg := append([]byte{0xff, 0xe1, byte((len(exif) + 2) >> 8), byte(len(exif) + 2)}, exif...)
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

func TestLoadPGMWithComment(t *testing.T) {
	// A raw PGM with a comment, whose first pixel is '#' (35), which trips some decoders,
	// and a plain PGM with the same pixels.
	pgm := append([]byte("P5\n# made by a test\n3 2\n255\n"), 35, 0, 255, 10, 20, 30)
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.pgm": pgm, "b": []byte("P2\n# plain\n3 2\n255\n35 0 255\n10 20 30\n")})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Channels != 1 || ds.Width != 3 || ds.Height != 2 {
		t.Fatalf("pgm loaded as %d×%d×%d", ds.Width, ds.Height, ds.Channels)
	}
	want := []float64{35, 0, 255, 10, 20, 30}
	for row := range 2 {
		for i, v := range want {
			if got := ds.Row(row)[i]; got != float32(v/255) {
				t.Fatalf("row %d sample %d = %v, want %v/255", row, i, got, v)
			}
		}
	}
}

func TestLoadPFMKeepsValues(t *testing.T) {
	a := &FloatImage{W: 2, H: 2, Channels: 1, Pix: []float32{-0.25, 0.5, 1.5, 0.125}}
	b := &FloatImage{W: 2, H: 2, Channels: 1, Pix: []float32{0, -3, 2, 0.1}}
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"x.pfm": pfmBytes(t, a), "y": pfmBytes(t, b)})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Channels != 1 {
		t.Fatalf("%d channels, want 1", ds.Channels)
	}
	for i, m := range []*FloatImage{a, b} {
		for j, want := range m.Pix {
			if got := ds.Row(i)[j]; got != want {
				t.Fatalf("image %d sample %d = %v, want %v (values must be kept as stored)", i, j, got, want)
			}
		}
	}
	// Resampling a float map keeps values outside [0, 1] too.
	c := &FloatImage{W: 4, H: 4, Channels: 1, Pix: make([]float32, 16)}
	for i := range c.Pix {
		c.Pix[i] = -2
	}
	writeFiles(t, dir, map[string][]byte{"z.pfm": pfmBytes(t, c)})
	ds, err = Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Resized[0] != "z.pfm" || math.Abs(float64(ds.Row(2)[0])+2) > 1e-9 {
		t.Errorf("resized %v, first sample %v; want z.pfm resized and −2 kept", ds.Resized, float64(ds.Row(2)[0]))
	}
}

func pfmBytes(t testing.TB, m *FloatImage) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := EncodePFM(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestLoad16BitPNG(t *testing.T) {
	img := image.NewGray16(image.Rect(0, 0, 2, 1))
	img.SetGray16(0, 0, color.Gray16{Y: 1})
	img.SetGray16(1, 0, color.Gray16{Y: 65535})
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.png": encodePNG(t, img), "b.png": encodePNG(t, img)})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.Row(0); got[0] != 1.0/65535 || got[1] != 1 {
		t.Errorf("16-bit samples loaded as %v, want [1/65535 1]", got)
	}
}

func TestLoadIsTheSameForAnyNumberOfWorkers(t *testing.T) {
	dir := t.TempDir()
	writeBadFolder(t, dir)
	writeFiles(t, dir, map[string][]byte{"sub/big.png": encodePNG(t, imageOfSize(40, 30))})
	var ref *Dataset
	for _, workers := range []int{1, 2, 8} {
		ds, err := Load(context.Background(), dir, Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = ds
			continue
		}
		if !equalStrings(ds.Names, ref.Names) || !equalStrings(ds.Resized, ref.Resized) || len(ds.Skipped) != len(ref.Skipped) {
			t.Fatalf("workers %d: names %v resized %v, want %v %v", workers, ds.Names, ds.Resized, ref.Names, ref.Resized)
		}
		for i := range ds.Skipped {
			if ds.Skipped[i] != ref.Skipped[i] {
				t.Fatalf("workers %d: skips %v, want %v", workers, ds.Skipped, ref.Skipped)
			}
		}
		a, b := ds.Pixels, ref.Pixels
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("workers %d: sample %d is %v, want %v", workers, i, a[i], b[i])
			}
		}
	}
}

func imageOfSize(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	return img
}

// TestLoadProgress: one report per file, with the bytes of the files done (their sizes
// on disk, which the time left follows) and what the pictures decoded so far look like.
func TestLoadProgress(t *testing.T) {
	dir := t.TempDir()
	writeBadFolder(t, dir)
	var totalBytes int64
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		totalBytes += info.Size()
	}
	var mu sync.Mutex
	seen := map[int]int{}
	var last LoadProgress
	_, err = Load(context.Background(), dir, Options{Workers: 3, Progress: func(p LoadProgress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Total != 9 || p.TotalBytes != totalBytes {
			t.Errorf("total %d files of %d bytes, want 9 of %d", p.Total, p.TotalBytes, totalBytes)
		}
		if p.Bytes < last.Bytes && p.Done > last.Done {
			t.Errorf("report %+v after %+v: the bytes done fell", p, last)
		}
		seen[p.Done]++
		if p.Done > last.Done {
			last = p
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for done := 1; done <= 9; done++ {
		if seen[done] != 1 {
			t.Errorf("progress %d reported %d times, want once", done, seen[done])
		}
	}
	// The five good pictures of the bad folder are 32×24 photos in colour.
	want := LoadProgress{Done: 9, Total: 9, Bytes: totalBytes, TotalBytes: totalBytes, Pictures: 5, Colour: 5, Pixels: 5 * 32 * 24}
	if last != want {
		t.Errorf("last report %+v, want %+v", last, want)
	}
}

// TestLoadDecodedComesBeforeThePixels checks the early look at a folder: one call, after
// every file is decoded and before the matrix exists, with the names, size and colour
// the data set then has and each picture at its own size; then each row of the matrix is
// counted as it is made (Rows), up to one per picture.
func TestLoadDecodedComesBeforeThePixels(t *testing.T) {
	dir := t.TempDir()
	writeBadFolder(t, dir)
	writeFiles(t, dir, map[string][]byte{"wide.png": encodePNG(t, imageOfSize(40, 10))})
	calls := 0
	var shape Dataset
	var sizes []image.Point
	var mu sync.Mutex
	var rows []int
	rowsBeforeDecoded := false
	ds, err := Load(context.Background(), dir, Options{Workers: 3, Decoded: func(s *Dataset, pictures []image.Image) {
		calls++
		shape = *s
		for _, p := range pictures {
			sizes = append(sizes, p.Bounds().Size())
		}
	}, Rows: func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		rowsBeforeDecoded = rowsBeforeDecoded || calls == 0
		rows = append(rows, done)
		if total != len(sizes) {
			t.Errorf("rows counted of %d, want of the %d pictures", total, len(sizes))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(rows)
	if rowsBeforeDecoded || len(rows) != len(ds.Names) || rows[len(rows)-1] != len(ds.Names) || rows[0] != 1 {
		t.Errorf("rows counted %v (one before Decoded: %v), want 1 … %d after it", rows, rowsBeforeDecoded, len(ds.Names))
	}
	if calls != 1 {
		t.Fatalf("Decoded called %d times, want once", calls)
	}
	if shape.Pixels != nil {
		t.Error("Decoded saw a data matrix; it should come before the matrix is filled")
	}
	if !equalStrings(shape.Names, ds.Names) || shape.Width != ds.Width || shape.Height != ds.Height || shape.Channels != ds.Channels {
		t.Errorf("Decoded saw %v %d×%d×%d, the data set is %v %d×%d×%d",
			shape.Names, shape.Width, shape.Height, shape.Channels, ds.Names, ds.Width, ds.Height, ds.Channels)
	}
	if !slices.Equal(sizes, ds.OriginalSizes) {
		t.Errorf("pictures of sizes %v, want the original sizes %v", sizes, ds.OriginalSizes)
	}
	if !slices.Contains(sizes, image.Pt(40, 10)) {
		t.Errorf("the 40×10 picture is missing from %v", sizes)
	}
}

func TestLoadCancelled(t *testing.T) {
	dir := t.TempDir()
	writeBadFolder(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Load(ctx, dir, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestLoadSurvivesPanickingDecoder registers a decoder that panics: the file is skipped.
func TestLoadSurvivesPanickingDecoder(t *testing.T) {
	dir := t.TempDir()
	writeBadFolder(t, dir)
	writeFiles(t, dir, map[string][]byte{"boom.img": []byte("BOOM!panic please")})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ds.Skipped {
		if s.Path == "boom.img" {
			if !strings.Contains(s.Reason, "the decoder failed: hostile input") {
				t.Errorf("boom.img skipped because %q", s.Reason)
			}
			return
		}
	}
	t.Errorf("boom.img not skipped: %v", ds.Skipped)
}

func init() {
	image.RegisterFormat("boom", "BOOM!",
		func(io.Reader) (image.Image, error) { panic("hostile input") },
		func(io.Reader) (image.Config, error) {
			return image.Config{ColorModel: color.GrayModel, Width: 2, Height: 2}, nil
		})
}

func TestDatasetImage(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"a.png": encodePNG(t, photo(0)), "b.png": encodePNG(t, photo(1))})
	ds, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := ds.Image(1).(*image.NRGBA)
	orig := photo(1).(*image.NRGBA)
	if !bytes.Equal(got.Pix, orig.Pix) {
		t.Error("Image(1) differs from the picture loaded")
	}
	if b := ds.Image(5).Bounds(); !b.Empty() {
		t.Errorf("Image out of range has bounds %v, want empty", b)
	}
}

// TestLoadJPEGCodingsImageJPEGLacks: an arithmetic-coded JPEG (testdata/arithmetic.jpg,
// 24×16, written by libjpeg-turbo's own encoder with arith_code set: red x·10, green
// y·15, blue 200 left of x = 12 and 30 right of it) is decoded by libjpeg-turbo; the same
// file said to hold 12-bit samples, or to be lossless, is skipped as unsupported, saying
// which — before, all three were "corrupt".
func TestLoadJPEGCodingsImageJPEGLacks(t *testing.T) {
	if !haveTurboJPEG {
		t.Skip("no libjpeg-turbo in this build: TestArithmeticJPEGWithoutTurboJPEG")
	}
	arith, err := os.ReadFile(filepath.Join("testdata", "arithmetic.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	sof := bytes.Index(arith, []byte{0xff, 0xc9})
	if sof < 0 {
		t.Fatal("testdata/arithmetic.jpg has no arithmetic-coded frame")
	}
	patched := func(marker, precision byte) []byte {
		b := bytes.Clone(arith)
		b[sof+1], b[sof+4] = marker, precision
		return b
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{"arith.jpg": arith, "twelve.jpg": patched(0xc1, 12), "lossless.jpg": patched(0xc3, 8),
		"b.png": encodePNG(t, photo(0))})
	ds, err := Load(context.Background(), dir, Options{Width: 24, Height: 16})
	if err != nil {
		t.Fatal(err)
	}
	want := []Skip{{"lossless.jpg", "unsupported: lossless JPEG; convert it to an 8-bit JPEG or a PNG"},
		{"twelve.jpg", "unsupported: JPEG of 12-bit samples (only 8-bit JPEGs are read); convert it to an 8-bit JPEG or a PNG"}}
	if !slices.Equal(ds.Skipped, want) || !slices.Equal(ds.Names, []string{"arith.jpg", "b.png"}) {
		t.Fatalf("names %v, skipped %v; want arith.jpg and b.png, skipped %v", ds.Names, ds.Skipped, want)
	}
	row := ds.Row(0)
	for y := 0; y < 16; y++ {
		for x := 0; x < 24; x++ {
			if x >= 9 && x < 15 {
				continue // the blue edge, blurred by the chroma subsampling
			}
			blue := 30.0
			if x < 12 {
				blue = 200
			}
			for c, v := range []float64{float64(x * 10), float64(y * 15), blue} {
				if got := 255 * float64(row[(y*24+x)*3+c]); math.Abs(got-v) > 40 {
					t.Fatalf("pixel (%d, %d) channel %d is %.0f, want about %.0f", x, y, c, got, v)
				}
			}
		}
	}
}
