package saved

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/encoding"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/imgproc"
	"featurelab/internal/atomicfile"
)

// Ext is the file extension of a saved analysis (File → Save analysis).
const Ext = ".featurelab"

// The "format" and "version" fields every saved analysis starts with, so that another
// JSON file, or one written by a later Feature Lab, is named as such rather than
// failing on some field deep inside. Version 2 holds its result as result.json does
// (FullResult); version 1 files, which had a shape of their own, are still read
// (filev1.go).
const (
	savedFormat  = "featurelab-analysis"
	savedVersion = 2
)

// Bounds on a saved file's dimensions, far beyond any real analysis: they keep a
// damaged or hostile file from making the reader multiply its way past int64.
const (
	maxSavedK    = 1 << 16 // features
	maxSavedSide = 1 << 20 // pixels on a side of the working size
	// maxSavedBytes is the largest file Open reads: 30 times the analysis of 2 000
	// images at K = 64 with 100 components and every λ² path fit, which writes 8 MB.
	maxSavedBytes = 256 << 20
	// maxSavedValue bounds a feature's entries: PCA scores of samples in [0, 1] are at
	// most √P ≤ 1 024 for the largest working size; a feature a million times that
	// would only draw as a black or white picture.
	maxSavedValue = 1e9
)

// ErrFolderChanged is wrapped by the error Restore returns when the data prepared again
// are not those the analysis was saved with: images added, removed or reordered, or a
// different working size, colour or PCA dimension. The folder and the parameters still
// load; only the saved result no longer applies.
var ErrFolderChanged = errors.New("the folder changed since the analysis was saved")

// Analysis is a saved analysis as read back: where the images came from and how they were
// loaded, the algorithm and its options, and the result with the fingerprint of the data
// it belongs to. It holds no data: Request prepares them again and Restore puts the
// result back on them.
type Analysis struct {
	Source    pipeline.Source       // an absolute folder, or a built-in sample by name
	Load      pipeline.LoadChoices  // the window's load options as the user gave them
	Algorithm *algorithms.Algorithm // the learner the file names
	Options   learn.Options         // as the run used them (a λ² it proposed included); not Workers, Progress, InitZ
	Result    *learn.Result
	Times     pipeline.Timings     // the saved run's load, PCA and algorithm seconds
	Peak      pipeline.PeakMemory  // the saved run's peak memory
	Describe  pipeline.Description // what the learner read of each image (Analysis.Description)
	AsFound   bool                 // Result is in the learner's own reading (Analysis.AsFound)
	Other     *pipeline.Reading    // the reading not shown, or nil (Analysis.Other)
	Stability []float64            // per feature, the share of half-sample fits that hold it, or nil (Analysis.Stability)
	// Separation is, per feature, how cleanly its images split as the run read it
	// (Analysis.Separation; NaN where the file gives none), or nil.
	Separation []float64
	// Encoder codes new images with the features shown (encoding), or is nil when the
	// file was saved without one (before there was one, or pictures too large for it).
	Encoder *encoding.Encoder

	// The fingerprint of the data the result belongs to.
	Names                   []string // the images, in the data set's order (imgproc.Dataset.Names)
	Width, Height, Channels int      // the working size every image was brought to
	D                       int      // columns of the PCA scores, and of Result.A
}

// Save writes the analysis, with the load options its data were prepared with, to path
// (which should end in Ext): a new file, or over a saved analysis (IsAnalysis) — never
// over another file, a picture or a device (CheckSave). Like the exports it writes
// through a temporary file, so a failed save leaves an earlier one intact.
func Save(a *result.Analysis, path string, load pipeline.LoadChoices) error {
	f, err := fileOf(a, load)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	// Compact: the result's matrices, one number a line when indented, would be most of it.
	return atomicfile.WriteOver(path, IsAnalysis, func(w io.Writer) error { return json.NewEncoder(w).Encode(f) })
}

// CheckSave says why Save could not write path, before the analysis is run: its folder
// is missing or cannot be written in, or a file there is not a saved analysis.
func CheckSave(path string) error { return atomicfile.Check(path, IsAnalysis) }

// Open reads a saved analysis and checks that it is whole: the format and version,
// and every dimension against the others, so that a damaged file is one line naming it
// and what is wrong, never a panic later in a view.
//
// Only a regular file of at most maxSavedBytes is read: a FIFO, a device (a link to
// /dev/zero) or a file that claims gigabytes is refused before any of it is, and the
// open does not wait for a FIFO's writer.
func Open(path string) (*Analysis, error) {
	f, err := imgproc.OpenRegular(path)
	if err != nil {
		var nr imgproc.NotRegularError
		if errors.As(err, &nr) {
			return nil, fmt.Errorf("%s: not a saved analysis: %v", path, nr)
		}
		return nil, err // "open PATH: no such file or directory" names the file already
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case st.IsDir():
		return nil, fmt.Errorf("%s: not a saved analysis: not a regular file but a folder", path)
	case st.Size() > maxSavedBytes:
		return nil, fmt.Errorf("%s: not a saved analysis: %d MB, more than the %d MB any analysis writes", path, st.Size()>>20, maxSavedBytes>>20)
	}
	// One buffer of the size the file says: ReadAll's doubling would take twice a
	// large file's size.
	b, err := readUpTo(f, st.Size(), maxSavedBytes+1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxSavedBytes {
		return nil, fmt.Errorf("%s: not a saved analysis: it grew past %d MB while being read", path, maxSavedBytes>>20)
	}
	s, err := decodeSaved(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Request is the request that prepares the saved analysis's data again, with its
// algorithm and options set: Prepare it, then Restore the result, or Run it again.
func (s *Analysis) Request() (pipeline.Request, error) {
	req, err := s.Load.Request(s.Source)
	if err != nil {
		return req, err
	}
	req.Algorithm, req.Options, req.Describe = s.Algorithm, s.Options, s.Describe
	return req, nil
}

// Restore puts the saved result back on data prepared again (from Request), without
// running the algorithm. When the data are no longer those it was saved with, the error
// wraps ErrFolderChanged and says what changed: the window can keep the folder and the
// parameters, but must not show the stale result.
func (s *Analysis) Restore(p *pipeline.Prepared) (*result.Analysis, error) {
	if p == nil || p.Data == nil || p.Scores == nil || p.PCA == nil {
		return nil, errors.New("restore: no prepared data")
	}
	if !s.sameSource(p.Source) {
		return nil, fmt.Errorf("restore: the analysis is of %s, the data prepared are of %s", s.Source, p.Source)
	}
	if err := s.sameData(p); err != nil {
		return nil, err
	}
	// Through result.Of, as a run's analysis is made: what its readings work out is kept
	// for the window and the exports to share.
	a := result.Of(p, &pipeline.Fitted{
		Algorithm:   s.Algorithm,
		Options:     s.Options,
		Result:      cloneResult(s.Result),
		Times:       s.Times,
		Peak:        s.Peak,
		Description: s.Describe,
		Other:       s.Other.Clone(),
		Stability:   slices.Clone(s.Stability),
	})
	a.AsFound = s.AsFound && s.Other != nil
	if s.Separation != nil {
		a.KeepSeparation(s.Separation)
	}
	return a, nil
}

// sameSource reports whether src names the saved source, a relative folder included.
func (s *Analysis) sameSource(src pipeline.Source) bool {
	if src.Dir == "" || s.Source.Dir == "" {
		return src.Dir == s.Source.Dir && src.SampleName() == s.Source.SampleName()
	}
	abs, err := filepath.Abs(src.Dir)
	return err == nil && abs == s.Source.Dir
}

// sameData compares the prepared data with the saved fingerprint.
func (s *Analysis) sameData(p *pipeline.Prepared) error {
	changed := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format+"; run it again", append([]any{ErrFolderChanged}, args...)...)
	}
	names := p.Data.Names
	if !slices.Equal(names, s.Names) {
		added, removed := setDifference(names, s.Names), setDifference(s.Names, names)
		if added == 0 && removed == 0 {
			return changed("its %d images are in another order", len(names))
		}
		return changed("%s", countChanges(added, removed))
	}
	ds := p.Data
	if ds.Width != s.Width || ds.Height != s.Height || ds.Channels != s.Channels {
		return changed("its images load as %s now, %s when saved",
			sizeName(ds.Width, ds.Height, ds.Channels), sizeName(s.Width, s.Height, s.Channels))
	}
	if _, d := p.Scores.Dims(); d != s.D {
		return changed("its data have %d PCA dimensions now, %d when saved", d, s.D)
	}
	// (A Prepared made by hand, not by pipeline.Prepare, says no mode.)
	if want := cmp.Or(s.Load.Exposure, pipeline.ExposureNone); p.Exposure.Mode != "" && p.Exposure.Mode != want {
		return changed("its images load with exposure %s now, %s when saved", p.Exposure.Mode, want)
	}
	return nil
}

// setDifference counts the elements of a that are not in b.
func setDifference(a, b []string) int {
	in := make(map[string]bool, len(b))
	for _, v := range b {
		in[v] = true
	}
	n := 0
	for _, v := range a {
		if !in[v] {
			n++
		}
	}
	return n
}

// countChanges says "2 images added, 1 removed", "1 image removed", ….
func countChanges(added, removed int) string {
	images := func(n int) string {
		if n == 1 {
			return "1 image"
		}
		return fmt.Sprintf("%d images", n)
	}
	switch {
	case removed == 0:
		return images(added) + " added"
	case added == 0:
		return images(removed) + " removed"
	}
	return fmt.Sprintf("%s added, %d removed", images(added), removed)
}

// sizeName says "320×240 colour" or "160×120 grey".
func sizeName(w, h, channels int) string {
	colour := "colour"
	if channels == 1 {
		colour = "grey"
	}
	return fmt.Sprintf("%d×%d %s", w, h, colour)
}

// cloneResult copies the matrices and slices of a result, so that every Restore of one
// Saved gives an analysis of its own: a view that rewrites Z or A changes no other.
func cloneResult(r *learn.Result) *learn.Result {
	c := *r
	c.Z, c.A, c.MAPZ = pipeline.CloneDense(r.Z), pipeline.CloneDense(r.A), pipeline.CloneDense(r.MAPZ)
	c.ZProbability = pipeline.CloneDense(r.ZProbability)
	c.RestartObjectives = slices.Clone(r.RestartObjectives)
	c.Curve = slices.Clone(r.Curve)
	c.KHistogram = slices.Clone(r.KHistogram)
	c.PathFits = slices.Clone(r.PathFits)
	for i, pf := range c.PathFits {
		c.PathFits[i].Z, c.PathFits[i].A = pipeline.CloneDense(pf.Z), pipeline.CloneDense(pf.A)
	}
	if r.Trace != nil {
		t := *r.Trace
		t.K, t.Alpha, t.SigmaX = slices.Clone(t.K), slices.Clone(t.Alpha), slices.Clone(t.SigmaX)
		t.SigmaA, t.LogJoint = slices.Clone(t.SigmaA), slices.Clone(t.LogJoint)
		c.Trace = &t
	}
	return &c
}

// readUpTo reads r to its end, at most limit bytes, into a buffer of size bytes grown
// only if r holds more than it said.
func readUpTo(r io.Reader, size, limit int64) ([]byte, error) {
	b := make([]byte, 0, min(size, limit)+1)
	for int64(len(b)) < limit {
		if len(b) == cap(b) {
			b = slices.Grow(b, int(min(limit-int64(len(b)), int64(cap(b)))))
		}
		n, err := r.Read(b[len(b):min(int64(cap(b)), limit)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}
