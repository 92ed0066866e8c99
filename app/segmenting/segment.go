package segmenting

import (
	"context"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"time"

	"featurelab/algorithms/segment"
	"featurelab/app/budget"
	"featurelab/app/jobs"
	"featurelab/app/saved"
	"featurelab/imgproc"
	"featurelab/internal/atomicfile"
)

// Output file names of a segmentation.
const (
	SegmentsFile   = "segments.png"
	BoundariesFile = "boundaries.png"
	LabelsFile     = "labels.png"
)

// Segmentation is one segmented image.
type Segmentation struct {
	Path   string
	Image  image.Image
	Result *segment.Result
}

// Summary is the JSON `featurelab segment --json` prints.
type Summary struct {
	Image      string  `json:"image"`
	Method     string  `json:"method"`
	Segments   int     `json:"segments"`
	Iterations int     `json:"iterations"`
	Seconds    float64 `json:"seconds"`
	Width      int     `json:"width"`
	Height     int     `json:"height"`
	Bound      float64 `json:"bound,omitempty"`
}

// segmentBytesPerPixel is what segmenting a picture holds per pixel of the original,
// which it decodes whole and labels whole (the segmentation itself works on a copy of at
// most 1 MP): measured as the process's peak on a BSDS photo enlarged to camera sizes,
// beyond what the program and its working copy take whatever the picture
// (docs/DESIGN.md, "Measurements behind the code").
const segmentBytesPerPixel = 15

// LoadImage reads one picture from disk the way the folder loader reads each of its
// files (imgproc.OpenFile: recognised by content, EXIF orientation, the pixel budget), on
// white where it is transparent. A picture whose pixels and labels at full size would
// take more than the memory budget (FEATURELAB_MEMORY, else half the free memory) is
// refused from its header, before it is decoded.
func LoadImage(path string) (image.Image, error) {
	if err := segmentFits(path); err != nil {
		return nil, err
	}
	img, err := imgproc.OpenFile(path, 0)
	if err != nil {
		return nil, fmt.Errorf("segment %w", err)
	}
	return imgproc.OnWhite(img), nil
}

// segmentFits refuses, in one line, a picture too large to segment within the memory
// budget. A file whose header cannot be read passes: OpenFile says what is wrong with it.
func segmentFits(path string) error {
	limit, err := budget.FromEnv()
	if err != nil {
		return err
	}
	if limit == 0 {
		limit = imgproc.MemoryBudget()
	}
	f, err := imgproc.OpenRegular(path)
	if err != nil {
		return nil // OpenFile says what is wrong with it
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(io.LimitReader(f, 64<<20))
	if err != nil {
		return nil
	}
	px := int64(cfg.Width) * int64(cfg.Height)
	if px > imgproc.DefaultMaxPixels {
		return nil // beyond the pixel budget: OpenFile refuses it in its own words
	}
	if need := segmentBytesPerPixel * px; need > limit {
		return fmt.Errorf("segment %s: a %d×%d picture needs about %s to be segmented at full size, more than the %s memory budget (%s, else half the free memory): give more, or a smaller picture",
			path, cfg.Width, cfg.Height, imgproc.BytesText(need), imgproc.BytesText(limit), budget.Env)
	}
	return nil
}

// Segment segments one image with the options given, reporting progress per iteration.
func Segment(ctx context.Context, img image.Image, opt segment.Options, report func(jobs.Progress)) (*segment.Result, error) {
	tr := jobs.NewTracker(report)
	maxIter := opt.MaxIter
	if maxIter <= 0 {
		maxIter = segment.DefaultMaxIter
	}
	// The KPYP says how many pixels changed label in each iteration, which tells how
	// many are still to come (Tracker.UpdateSettling); counted against the most allowed,
	// the bar would lag far behind the work done.
	var changed float64
	settling := false
	opt.Settling = func(c float64) { changed, settling = c, true }
	opt.Progress = func(iter int, bound float64) {
		stage := fmt.Sprintf("Segmenting (bound %.6g)", bound)
		if settling {
			tr.UpdateSettling(stage, iter, maxIter, changed, segment.LabelTol)
			return
		}
		tr.Update(stage, iter, maxIter)
	}
	opt.Report = tr.Update // the Tracker reports under its own lock
	// Before the first iteration the picture's colours and texture are read at full
	// size: seconds for a camera frame, with nothing on the status bar until now.
	tr.Update("Preparing the picture", 0, 0)
	start := time.Now()
	res, err := segment.Segment(ctx, img, opt)
	if err != nil {
		return nil, err
	}
	if res.Seconds == 0 {
		res.Seconds = time.Since(start).Seconds()
	}
	return res, nil
}

// Summary describes a segmentation for --json.
func (s *Segmentation) Summary(method string) Summary {
	r := s.Result
	sum := Summary{Image: s.Path, Method: method, Segments: r.Segments, Iterations: r.Iterations,
		Seconds: r.Seconds, Width: r.Width, Height: r.Height}
	if len(r.Bound) > 0 {
		sum.Bound = saved.Finite(r.Bound[len(r.Bound)-1])
	}
	return sum
}

// ownPictures maps the names of the pictures a segmentation writes into its folder to
// how a picture Feature Lab wrote is known (imgproc.IsOwnPNG): only those are replaced.
func ownPictures(names ...string) map[string]atomicfile.Mine {
	m := map[string]atomicfile.Mine{}
	for _, n := range names {
		m[n] = imgproc.IsOwnPNG
	}
	return m
}

// CheckOutputs says why WriteOutputs could not write into dir, before the segmentation is
// run: dir is a file, or a picture there of an output's name is not one Feature Lab wrote.
func CheckOutputs(dir string) error {
	return atomicfile.CheckFolder(dir, ownPictures(SegmentsFile, BoundariesFile, LabelsFile))
}

// WriteOutputs writes segments.png, boundaries.png and labels.png (16-bit labels) to dir,
// replacing only pictures Feature Lab wrote (CheckOutputs).
func (s *Segmentation) WriteOutputs(dir string) error {
	if err := CheckOutputs(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	outs := []struct {
		name string
		img  image.Image
	}{
		{SegmentsFile, s.Result.ColorImage()},
		{BoundariesFile, segment.BoundaryImage(s.Image, s.Result)},
		{LabelsFile, s.Result.LabelImage()},
	}
	for _, o := range outs {
		img := o.img
		if err := atomicfile.WriteOver(filepath.Join(dir, o.name), imgproc.IsOwnPNG, func(w io.Writer) error { return imgproc.EncodePNG(w, img) }); err != nil {
			return err
		}
	}
	return nil
}
