package imgproc

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/disintegration/imaging"
	"gonum.org/v1/gonum/mat"
)

// ColorMode chooses colour or grey pixels.
type ColorMode int

const (
	// ColorAuto gives colour if any image is colour, grey otherwise.
	ColorAuto ColorMode = iota
	// ColorRGB always gives three channels.
	ColorRGB
	// ColorGray always gives one channel, the ITU-R BT.601 luma.
	ColorGray
)

// DefaultMaxPixels is the per-image pixel budget: 50 megapixels.
const DefaultMaxPixels = 50_000_000

// Options controls loading. The zero value is usable.
type Options struct {
	Color         ColorMode
	Width, Height int   // common size; 0 = the most common size among the images
	MaxPixels     int64 // per-image budget checked from the header; 0 = DefaultMaxPixels
	Workers       int   // decoding goroutines; 0 = GOMAXPROCS
	// Progress, when set, is called from the workers with the files done so far.
	Progress func(done, total int)
}

// Skip is a file that was not loaded and why.
type Skip struct {
	Path   string
	Reason string
}

// Dataset is a loaded folder: one row of Pixels per image, values in [0,1] (or as stored,
// for float maps), laid out row-major with the channels of a pixel together:
// v[(y·Width+x)·Channels+c].
type Dataset struct {
	Names    []string // paths relative to the folder, in natural order
	Width    int
	Height   int
	Channels int
	Pixels   *mat.Dense
	Skipped  []Skip
	Resized  []string // images resized to the common size
}

// Image returns image i as a picture.
func (d *Dataset) Image(i int) image.Image {
	return VectorToImage(d.Pixels.RawRowView(i), d.Width, d.Height, d.Channels)
}

// Load reads every usable image in dir and its subfolders.
func Load(ctx context.Context, dir string, opt Options) (*Dataset, error) {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("load %s: no such folder", dir)
		}
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("load %s: not a folder", dir)
	}
	ds, err := LoadFS(ctx, os.DirFS(dir), ".", opt)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	return ds, nil
}

// decoded is one file after the first pass.
type decoded struct {
	name   string
	img    image.Image
	colour bool
	skip   string
}

// LoadFS reads every usable image under root in fsys.
func LoadFS(ctx context.Context, fsys fs.FS, root string, opt Options) (*Dataset, error) {
	var files []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel := p
			if root != "." {
				rel = strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
			}
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b string) int {
		if NaturalLess(a, b) {
			return -1
		}
		if NaturalLess(b, a) {
			return 1
		}
		return 0
	})
	budget := opt.MaxPixels
	if budget <= 0 {
		budget = DefaultMaxPixels
	}
	total := len(files)
	var done atomic.Int64
	items := make([]decoded, total)
	err = parallel(ctx, total, opt.Workers, func(i int) {
		items[i] = decodeFile(fsys, path.Join(root, files[i]), files[i], budget)
		if opt.Progress != nil {
			opt.Progress(int(done.Add(1)), total)
		}
	})
	if err != nil {
		return nil, err
	}

	ds := &Dataset{}
	var good []decoded
	for _, it := range items {
		if it.skip != "" {
			ds.Skipped = append(ds.Skipped, Skip{it.name, it.skip})
			continue
		}
		good = append(good, it)
	}
	if len(good) < 2 {
		if len(good) == 0 {
			return nil, fmt.Errorf("no usable images (%s)", describeSkips(ds.Skipped))
		}
		return nil, fmt.Errorf("only 1 usable image (%s); need at least 2", good[0].name)
	}
	ds.Width, ds.Height = opt.Width, opt.Height
	if ds.Width <= 0 || ds.Height <= 0 {
		ds.Width, ds.Height = commonSize(good)
	}
	ds.Channels = 1
	switch opt.Color {
	case ColorRGB:
		ds.Channels = 3
	case ColorAuto:
		for _, g := range good {
			if g.colour {
				ds.Channels = 3
				break
			}
		}
	}
	p := ds.Width * ds.Height * ds.Channels
	ds.Pixels = mat.NewDense(len(good), p, nil)
	ds.Names = make([]string, len(good))
	resized := make([]bool, len(good))
	err = parallel(ctx, len(good), opt.Workers, func(i int) {
		g := good[i]
		img := g.img
		if b := img.Bounds(); b.Dx() != ds.Width || b.Dy() != ds.Height {
			img = imaging.Resize(flatten(img), ds.Width, ds.Height, imaging.Lanczos)
			resized[i] = true
		}
		toVector(img, ds.Channels == 1, ds.Pixels.RawRowView(i))
		ds.Names[i] = g.name
		good[i].img = nil // let the decoded picture go
	})
	if err != nil {
		return nil, err
	}
	for i, r := range resized {
		if r {
			ds.Resized = append(ds.Resized, ds.Names[i])
		}
	}
	return ds, nil
}

// flatten composites a picture with transparency on white before it is resampled, so
// transparent pixels do not bleed their hidden colour into the edges.
func flatten(img image.Image) image.Image {
	if _, ok := img.(*FloatImage); ok {
		return img
	}
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	row := make([]float64, b.Dx()*3)
	for y := 0; y < b.Dy(); y++ {
		sub := subImageRow(img, y)
		toVector(sub, false, row)
		for x := 0; x < b.Dx(); x++ {
			o := out.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				out.Pix[o+c] = uint8(row[3*x+c]*255 + 0.5)
			}
			out.Pix[o+3] = 255
		}
	}
	return out
}

func subImageRow(img image.Image, y int) image.Image {
	b := img.Bounds()
	r := image.Rect(b.Min.X, b.Min.Y+y, b.Max.X, b.Min.Y+y+1)
	if s, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		return s.SubImage(r)
	}
	return rowView{img, r}
}

type rowView struct {
	image.Image
	r image.Rectangle
}

func (v rowView) Bounds() image.Rectangle { return v.r }

// commonSize is the most common size among the images; ties go to the earliest image.
func commonSize(items []decoded) (int, int) {
	counts := map[image.Point]int{}
	for _, it := range items {
		b := it.img.Bounds()
		counts[image.Pt(b.Dx(), b.Dy())]++
	}
	best, bestN := image.Point{}, -1
	for _, it := range items {
		b := it.img.Bounds()
		pt := image.Pt(b.Dx(), b.Dy())
		if counts[pt] > bestN {
			best, bestN = pt, counts[pt]
		}
	}
	return best.X, best.Y
}

func describeSkips(skips []Skip) string {
	if len(skips) == 0 {
		return "the folder has no files"
	}
	parts := make([]string, 0, 3)
	for i, s := range skips {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(skips)-3))
			break
		}
		parts = append(parts, s.Path+": "+s.Reason)
	}
	return fmt.Sprintf("%d skipped: %s", len(skips), strings.Join(parts, "; "))
}

// parallel runs fn(0..n-1) on workers goroutines and stops early when ctx is done.
func parallel(ctx context.Context, n, workers int, fn func(i int)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
