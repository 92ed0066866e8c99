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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"featurelab/internal/hugepage"
)

// ColorMode chooses colour or grey pixels.
type ColorMode int

const (
	// ColorAuto gives colour if any image is colour, grey otherwise. A picture is colour
	// when some pixel's channels differ, so a grey photo saved as RGB counts as grey.
	ColorAuto ColorMode = iota
	// ColorRGB always gives three channels.
	ColorRGB
	// ColorGray always gives one channel, the ITU-R BT.601 luma 0.299R + 0.587G + 0.114B.
	ColorGray
)

// DefaultMaxPixels is the default per-image pixel budget: 50 megapixels.
const DefaultMaxPixels = 50_000_000

// DefaultMemory is the memory the data matrix may take when Options.Memory is 0 and the
// machine does not say how much it has free.
const DefaultMemory = 4 << 30

// Options controls loading. The zero value is usable.
type Options struct {
	Color         ColorMode
	Width, Height int   // common size; both 0 = the most common working size (WorkingPixels)
	MaxPixels     int64 // per-image budget checked from the header; 0 = DefaultMaxPixels
	// Memory is how many bytes the data matrix (N × P float32s) and RunMemory may take
	// together; a folder that needs more is refused, before anything that size is
	// allocated, with a line that says what to change. 0 = MemoryBudget: half the
	// memory the machine has free, or less under an address-space or cgroup limit.
	Memory int64
	// RunMemory, when set, says how many bytes the caller's work after the load (the PCA)
	// will allocate for n images of size in so many channels, what for ("for the PCA"),
	// and what to change to need less; the load counts it in Memory, so that a run that
	// cannot fit is refused before it starts. A refusal calls it again for each smaller
	// size and for grey, to advise one that fits, so it must only compute.
	RunMemory func(n int, size image.Point, channels int) (bytes int64, what, hint string)
	// memoryLimit names the hard limit that set Memory when it was 0, for the refusal.
	memoryLimit string
	// One lets a single usable image make a data set: learning needs two, coding new
	// images with a saved analysis does not.
	One bool
	// NoGray says the caller has no grey mode to offer (cosegment reads colour), so a
	// refusal does not advise one.
	NoGray bool
	// WorkingPixels is the working budget: a picture with more pixels is reduced when it
	// is decoded — to Width×Height when they are set, else to this many pixels at its own
	// aspect ratio — so that no full-size picture outlives its decoding. Smaller pictures
	// keep their size. 0 = DefaultWorkingPixels.
	WorkingPixels int64
	Workers       int // decoding goroutines; 0 = GOMAXPROCS
	// Progress, when set, is called from the decoding goroutines each time a file is done
	// (decoded or skipped), with how far the load has come.
	Progress func(LoadProgress)
	// Decoded, when set, is called once every file is decoded and before the data matrix
	// is filled (on a large folder, the longer part), so that a caller can show the
	// pictures early. shape is the data set to come without its Pixels; pictures[i] is
	// image shape.Names[i] as decoded, turned upright and reduced to the working budget,
	// at its own size and in its own colours. Neither may be kept after the call.
	Decoded func(shape *Dataset, pictures []image.Image)
	// Rows, when set, is called from the converting goroutines each time a row of the data
	// matrix is made, with how many of how many are: the second pass, after Decoded, takes
	// seconds on a large folder (its pages are touched for the first time).
	Rows func(done, total int)
}

// LoadProgress is how far a load's first pass, which decodes every file, has come.
type LoadProgress struct {
	Done, Total int // files decoded or skipped, of the files found
	// Bytes and TotalBytes are the sizes on disk of those files and of all of them:
	// decoding takes time about in proportion to a file's size, not to the count, in a
	// folder that mixes camera photos with thumbnails or with files that are skipped.
	Bytes, TotalBytes int64
	// Pictures of the files done were decoded (the others are skipped), Colour of them
	// in colour, with Pixels pixels in all at the size they are kept: what the data to
	// come will look like.
	Pictures, Colour int
	Pixels           int64
}

// Skip is a file that was not loaded and why.
type Skip struct {
	Path   string // relative to the loaded folder, slash-separated
	Reason string
}

// OneImageError is Load's error for a folder with a single usable image: too few to
// learn features from, but a picture a user may still want to segment, so the caller
// can offer that.
type OneImageError struct {
	Name string // the image, relative to the loaded folder, slash-separated
	msg  string
}

func (e *OneImageError) Error() string { return e.msg }

// Dataset is a loaded folder: row i of Pixels is image Names[i], laid out row-major with
// the channels of a pixel together, v[(y·Width+x)·Channels+c], values in [0, 1] (PFM
// samples as stored).
//
// The rows are float32, half the memory of float64: a pixel needs no more than its
// 24 bits of precision (an 8- or 16-bit sample is exact in it), and the data matrix is
// the one part of a run that grows with both the number and the size of the images.
type Dataset struct {
	Names         []string // paths relative to the folder, slash-separated, in natural order
	Width         int
	Height        int
	Channels      int           // 1 (grey) or 3 (RGB)
	Pixels        []float32     // len(Names) rows of Values() samples, row-major (see Row)
	Skipped       []Skip        // files that are not usable images, in natural order
	Resized       []string      // images resampled to the common size
	OriginalSizes []image.Point // each image's size as decoded, turned upright and reduced to the working budget, before resampling
	Working       Working       // how the common size was chosen
}

// Working records how a load chose its common size, for SizeReason.
type Working struct {
	Requested bool        // the size was given (Options.Width, Height)
	Budget    int64       // the working budget in pixels (Options.WorkingPixels)
	Reduced   int         // pictures larger than the budget, reduced as they were decoded
	Largest   image.Point // the largest of those, as stored (turned upright)
}

// SizeReason says in a sentence which common size the load chose and why: the size
// asked for or the most common one, how many pictures were reduced to the working
// budget and how many resampled to the common size.
func (d *Dataset) SizeReason() string {
	n, w := len(d.Names), d.Working
	size := image.Pt(d.Width, d.Height)
	common := 0
	for _, s := range d.OriginalSizes {
		if s == size {
			common++
		}
	}
	var why []string
	switch {
	case w.Requested:
		why = append(why, "the size asked for")
	case common == n:
		why = append(why, fmt.Sprintf("the size of all %d images", n))
	default:
		why = append(why, fmt.Sprintf("the most common size (%d of %d images)", common, n))
	}
	if w.Reduced > 0 {
		pictures := "larger pictures (up to %d×%d) were"
		if w.Reduced == 1 {
			pictures = "larger picture (%d×%d) was"
		}
		why = append(why, fmt.Sprintf("%d "+pictures+" reduced to the working budget of %s pixels",
			w.Reduced, w.Largest.X, w.Largest.Y, groupThousands(w.Budget)))
	}
	if r := n - common; r > 0 {
		why = append(why, fmt.Sprintf("%d resampled to it", r))
	}
	return fmt.Sprintf("%d×%d: %s", d.Width, d.Height, strings.Join(why, "; "))
}

// groupThousands writes n with thin spaces between groups of three digits: 76 800.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "\u202f" + s[i:]
	}
	return s
}

// Image returns image i as a picture (clamped to [0, 1] for display); an index out of
// range gives an empty picture.
func (d *Dataset) Image(i int) image.Image {
	if d == nil || d.Pixels == nil || i < 0 || i >= len(d.Names) {
		return image.NewGray(image.Rect(0, 0, 0, 0))
	}
	return VectorToImage(d.Vector(i), d.Width, d.Height, d.Channels)
}

// Values is P, the number of samples in one image's row: Width·Height·Channels.
func (d *Dataset) Values() int { return d.Width * d.Height * d.Channels }

// Row returns image i's row of Pixels, aliasing the data.
func (d *Dataset) Row(i int) []float32 {
	p := d.Values()
	return d.Pixels[i*p : (i+1)*p : (i+1)*p]
}

// Vector returns a float64 copy of image i's row.
func (d *Dataset) Vector(i int) []float64 {
	row := d.Row(i)
	v := make([]float64, len(row))
	for j, x := range row {
		v[j] = float64(x)
	}
	return v
}

// Load reads every usable image in dir and its subfolders. Files and folders whose names
// start with "." are ignored; other files that are not usable images are listed in
// Dataset.Skipped with the reason. Loading fails only when fewer than 2 images remain.
func Load(ctx context.Context, dir string, opt Options) (*Dataset, error) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("load %s: no such folder", dir)
	case err != nil:
		return nil, fmt.Errorf("load %s: %w", dir, err)
	case !st.IsDir():
		return nil, fmt.Errorf("load %s: not a folder", dir)
	}
	return load(ctx, dirFS(dir), ".", dir, opt)
}

// LoadFS is Load for the folder root of fsys (use "." for all of it), e.g. the built-in
// samples embedded in the binary. Names are relative to root.
func LoadFS(ctx context.Context, fsys fs.FS, root string, opt Options) (*Dataset, error) {
	st, err := fs.Stat(fsys, root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("load %s: no such folder", root)
	case err != nil:
		return nil, fmt.Errorf("load %s: %w", root, err)
	case !st.IsDir():
		return nil, fmt.Errorf("load %s: not a folder", root)
	}
	return load(ctx, fsys, root, root, opt)
}

func (opt Options) check() (Options, error) {
	switch {
	case opt.Color < ColorAuto || opt.Color > ColorGray:
		return opt, fmt.Errorf("unknown colour mode %d", opt.Color)
	case opt.Width < 0 || opt.Height < 0 || (opt.Width == 0) != (opt.Height == 0):
		return opt, fmt.Errorf("width and height must both be positive or both be 0, got %d×%d", opt.Width, opt.Height)
	case opt.MaxPixels < 0:
		return opt, fmt.Errorf("pixel budget must be ≥ 0, got %d", opt.MaxPixels)
	case opt.WorkingPixels < 0:
		return opt, fmt.Errorf("working budget must be ≥ 0, got %d", opt.WorkingPixels)
	case opt.Memory < 0:
		return opt, fmt.Errorf("memory budget must be ≥ 0, got %d", opt.Memory)
	}
	if opt.Memory == 0 {
		opt.Memory, opt.memoryLimit = MemoryBudget(), budgetLimit()
	}
	if opt.MaxPixels == 0 {
		opt.MaxPixels = DefaultMaxPixels
	}
	if opt.WorkingPixels == 0 {
		opt.WorkingPixels = DefaultWorkingPixels
	}
	if int64(opt.Width)*int64(opt.Height) > opt.MaxPixels {
		return opt, fmt.Errorf("size %d×%d exceeds the %s budget", opt.Width, opt.Height, megapixels(opt.MaxPixels))
	}
	return opt, nil
}

// load is Load and LoadFS after the folder is known to exist; label names it in errors.
func load(ctx context.Context, fsys fs.FS, root, label string, opt Options) (*Dataset, error) {
	opt, err := opt.check()
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", label, err)
	}
	files, skipped, err := listFiles(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", label, err)
	}

	// First pass: decode every file, reducing a picture larger than the working size at
	// once; a picture's colour and size are known only after.
	total := len(files)
	var mu sync.Mutex
	progress := LoadProgress{Total: total}
	for _, f := range files {
		progress.TotalBytes += f.size
	}
	items := make([]decoded, total)
	want := image.Pt(opt.Width, opt.Height)
	reduce := func(size image.Point) image.Point { return workingSize(size, want, opt.WorkingPixels) }
	bufs := &buffers{}
	err = Parallel(ctx, total, opt.Workers, func(i int) {
		items[i] = decodeFile(fsys, path.Join(root, files[i].name), files[i].name, opt.MaxPixels, reduce, bufs)
		if opt.Progress == nil {
			return
		}
		mu.Lock()
		progress.Done++
		progress.Bytes += files[i].size
		if it := items[i]; it.skip == "" {
			size := it.img.Bounds().Size()
			progress.Pictures++
			progress.Pixels += int64(size.X) * int64(size.Y)
			if it.colour {
				progress.Colour++
			}
		}
		now := progress
		mu.Unlock()
		opt.Progress(now)
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", label, err)
	}
	var good []decoded
	for _, it := range items {
		if it.skip != "" {
			skipped = append(skipped, Skip{it.name, it.skip})
			continue
		}
		good = append(good, it)
	}
	slices.SortStableFunc(skipped, func(a, b Skip) int { return NaturalOrder(a.Path, b.Path) })
	switch len(good) {
	case 0:
		return nil, fmt.Errorf("load %s: no usable images (%s)", label, describeSkips(skipped))
	case 1:
		if opt.One {
			break
		}
		msg := fmt.Sprintf("load %s: only 1 usable image (%s); need at least 2", label, good[0].name)
		if len(skipped) > 0 {
			msg += " (" + describeSkips(skipped) + ")"
		}
		return nil, &OneImageError{Name: good[0].name, msg: msg}
	}

	ds := &Dataset{Skipped: skipped, Width: opt.Width, Height: opt.Height, Channels: 1}
	ds.Working = Working{Requested: opt.Width > 0, Budget: opt.WorkingPixels}
	ds.Names = make([]string, len(good))
	ds.OriginalSizes = make([]image.Point, len(good))
	for i, g := range good {
		ds.Names[i] = g.name
		ds.OriginalSizes[i] = g.img.Bounds().Size()
		if g.reduced {
			ds.Working.Reduced++
			if px := int64(g.upright.X) * int64(g.upright.Y); px > int64(ds.Working.Largest.X)*int64(ds.Working.Largest.Y) {
				ds.Working.Largest = g.upright
			}
		}
	}
	if ds.Width == 0 {
		size := mostCommon(ds.OriginalSizes)
		ds.Width, ds.Height = size.X, size.Y
	}
	if opt.Color == ColorRGB || (opt.Color == ColorAuto && slices.ContainsFunc(good, func(g decoded) bool { return g.colour })) {
		ds.Channels = 3
	}
	p := ds.Width * ds.Height * ds.Channels
	// run is what the caller's work after the load takes for the images at a size; the
	// refusal's advice tries other sizes with the same estimate, so that it fits.
	run := func(size image.Point, channels int) (int64, string, string) {
		if opt.RunMemory == nil {
			return 0, "", ""
		}
		return opt.RunMemory(len(good), size, channels)
	}
	needAt := func(size image.Point, channels int) int64 {
		bytes, _, _ := run(size, channels)
		return DataBytes(len(good), size.X*size.Y*channels) + bytes
	}
	data := DataBytes(len(good), p)
	runBytes, runWhat, hint := run(image.Pt(ds.Width, ds.Height), ds.Channels)
	if need := data + runBytes; need > opt.Memory {
		what := ""
		if runBytes > 0 {
			what = fmt.Sprintf(" (%s of pixels, %s %s)", bytesText(data), bytesText(runBytes), runWhat)
		}
		advice := smallerAdvice(ds, opt, needAt)
		if hint != "" {
			advice += ", or " + hint
		}
		return nil, fmt.Errorf("load %s: %d images of %d×%d×%d need %s%s, more than the %s there is room for%s: %s",
			label, len(good), ds.Width, ds.Height, ds.Channels, bytesText(need), what, bytesText(opt.Memory), opt.memoryLimit, advice)
	}

	if opt.Decoded != nil {
		shape := *ds
		pictures := make([]image.Image, len(good))
		for i, g := range good {
			pictures[i] = g.img
		}
		opt.Decoded(&shape, pictures)
	}

	// Second pass: one row of the data matrix per picture, resampled when its size differs.
	ds.Pixels = make([]float32, len(good)*p)
	hugepage.Advise(ds.Pixels)
	resized := make([]bool, len(good))
	for i, g := range good {
		resized[i] = g.reduced
	}
	// The rows are made in float64, as every decoder and the resampler work, and stored
	// in float32. The float64 rows are reused, not made per picture: a new one each time
	// makes garbage larger than the data matrix on a large folder, and the collector lets
	// the process grow to several times the data matrix before it catches up.
	scratch := sync.Pool{New: func() any { return make([]float64, p) }}
	var rows atomic.Int64
	err = Parallel(ctx, len(good), opt.Workers, func(i int) {
		img := good[i].img
		good[i].img = nil // let the decoded picture go as soon as it is converted
		row := scratch.Get().([]float64)
		defer scratch.Put(row)
		size := ds.OriginalSizes[i]
		if size.X == ds.Width && size.Y == ds.Height {
			toVector(img, ds.Channels, row)
		} else {
			resized[i] = true
			native := make([]float64, size.X*size.Y*ds.Channels)
			toVector(img, ds.Channels, native)
			_, float := img.(*FloatImage)
			resample(native, size.X, size.Y, ds.Channels, row, ds.Width, ds.Height, !float)
		}
		for j, v := range row {
			ds.Pixels[i*p+j] = float32(v)
		}
		if opt.Rows != nil {
			opt.Rows(int(rows.Add(1)), len(good))
		}
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", label, err)
	}
	for i, r := range resized {
		if r {
			ds.Resized = append(ds.Resized, ds.Names[i])
		}
	}
	return ds, nil
}

// listed is a file found by listFiles: its name relative to the folder and its size,
// 0 where it could not be read.
type listed struct {
	name string
	size int64
}

// listFiles walks root and returns the regular files below it, relative to root, in
// natural order. Unreadable subfolders and special files become skips; hidden entries
// (".git", ".DS_Store") and links to folders are ignored.
func listFiles(fsys fs.FS, root string) ([]listed, []Skip, error) {
	var files []listed
	var skips []Skip
	rel := func(p string) string {
		if root == "." {
			return p
		}
		return strings.TrimPrefix(p, root+"/")
	}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			skips = append(skips, Skip{rel(p), "unreadable folder: " + errText(err)})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		switch t := d.Type(); {
		case d.IsDir():
		case t.IsRegular():
			f := listed{name: rel(p)}
			if info, err := d.Info(); err == nil {
				f.size = info.Size()
			}
			files = append(files, f)
		case t&fs.ModeSymlink != 0:
			// Follow links to files; links to folders could loop, so they are not walked.
			st, err := fs.Stat(fsys, p)
			switch {
			case err != nil:
				skips = append(skips, Skip{rel(p), "unreadable link: " + errText(err)})
			case st.Mode().IsRegular():
				files = append(files, listed{rel(p), st.Size()})
			case !st.IsDir():
				skips = append(skips, Skip{rel(p), "a link to " + FileKind(st.Mode()) + ", not to a regular file"})
			}
		default: // a pipe or device would block or never end when read
			skips = append(skips, Skip{rel(p), "not a regular file but " + FileKind(t)})
		}
		return nil
	})
	slices.SortFunc(files, func(a, b listed) int { return NaturalOrder(a.name, b.name) })
	return files, skips, err
}

// mostCommon is the most frequent size; ties go to the size seen first.
func mostCommon(sizes []image.Point) image.Point {
	counts := make(map[image.Point]int)
	for _, s := range sizes {
		counts[s]++
	}
	best := sizes[0]
	for _, s := range sizes {
		if counts[s] > counts[best] {
			best = s
		}
	}
	return best
}

// describeSkips summarises skips for an error message: the count and the first three.
func describeSkips(skips []Skip) string {
	if len(skips) == 0 {
		return "the folder has no files"
	}
	parts := make([]string, 0, 4)
	for i, s := range skips {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(skips)-3))
			break
		}
		parts = append(parts, s.Path+": "+s.Reason)
	}
	return fmt.Sprintf("%d skipped: %s", len(skips), strings.Join(parts, "; "))
}

// Parallel runs fn(0), …, fn(n−1) on workers goroutines (0 = GOMAXPROCS) and stops
// handing out work when ctx is done. When each fn(i) writes only its own slot, results do
// not depend on the number of workers.
func Parallel(ctx context.Context, n, workers int, fn func(i int)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}
