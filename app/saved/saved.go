package saved

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/encoding"
	"featurelab/app/pipeline"
	"featurelab/assets"
	"featurelab/imgproc"
	"featurelab/internal/atomicfile"
)

// Ext is the file extension of a saved analysis (File → Save analysis).
const Ext = ".featurelab"

// The "format" and "version" fields every saved analysis starts with, so that another
// JSON file, or one written by a later Feature Lab, is named as such rather than
// failing on some field deep inside.
const (
	savedFormat  = "featurelab-analysis"
	savedVersion = 1
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
	Source    pipeline.Source      // an absolute folder, or a built-in sample by name
	Load      pipeline.LoadChoices // the window's load options as the user gave them
	Algorithm string               // one of algorithms.Names
	Options   learn.Options        // as the run used them (a λ² it proposed included); not Workers, Progress, InitZ
	Result    *learn.Result
	Times     pipeline.Timings     // the saved run's load, PCA and algorithm seconds
	Peak      pipeline.PeakMemory  // the saved run's peak memory
	Describe  pipeline.Description // what the learner read of each image (Analysis.Description)
	AsFound   bool                 // Result is in the learner's own reading (Analysis.AsFound)
	Other     *pipeline.Reading    // the reading not shown, or nil (Analysis.Other)
	Stability []float64            // per feature, the share of half-sample fits that hold it, or nil (Analysis.Stability)
	// Encoder codes new images with the features shown (encoding), or is nil when the
	// file was saved without one (before there was one, or pictures too large for it).
	Encoder *encoding.Encoder

	// The fingerprint of the data the result belongs to.
	Names                   []string // the images, in the data set's order (imgproc.Dataset.Names)
	Width, Height, Channels int      // the working size every image was brought to
	D                       int      // columns of the PCA scores, and of Result.A
}

// Save writes the analysis, with the load options its data were prepared with, to path
// (which should end in Ext), replacing any file there. Like the exports it writes
// through a temporary file, so a failed save leaves an earlier one intact.
func Save(a *pipeline.Analysis, path string, load pipeline.LoadChoices) error {
	s, err := fromAnalysis(a, load)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	f := s.file()
	return atomicfile.Write(path, true, func(w io.Writer) error { return WriteJSON(w, f) })
}

// fromAnalysis gathers what Save writes.
func fromAnalysis(a *pipeline.Analysis, load pipeline.LoadChoices) (*Analysis, error) {
	if a.Result == nil || a.Result.Z == nil || a.Result.A == nil || a.Data == nil || a.Scores == nil {
		return nil, errors.New("the analysis has no result to save")
	}
	if a.Result.K < 1 {
		// Open refuses it: every view of a result is one of features.
		return nil, errors.New("the analysis has no features to save")
	}
	src := pipeline.Source{Sample: a.Source.SampleName()}
	if a.Source.Dir != "" {
		// The file may be opened from another working directory.
		abs, err := filepath.Abs(a.Source.Dir)
		if err != nil {
			return nil, err
		}
		src = pipeline.Source{Dir: abs}
	}
	// A file whose load options cannot be read back could never be opened.
	if _, err := load.Request(src); err != nil {
		return nil, fmt.Errorf("load options: %w", err)
	}
	opt := a.Options
	opt.Workers, opt.Progress, opt.InitZ = 0, nil, nil
	_, d := a.Scores.Dims()
	enc, err := encoderOf(a)
	if err != nil {
		return nil, err
	}
	return &Analysis{
		Encoder:   enc,
		Source:    src,
		Load:      load,
		Algorithm: a.Algorithm,
		Options:   opt,
		Result:    a.Result,
		Times:     a.Times,
		Peak:      a.Peak,
		Describe:  a.Description,
		AsFound:   a.AsFound,
		Other:     a.Other,
		Stability: a.Stability,
		Names:     a.Data.Names,
		Width:     a.Data.Width,
		Height:    a.Data.Height,
		Channels:  a.Data.Channels,
		D:         d,
	}, nil
}

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
	b, err := io.ReadAll(io.LimitReader(f, maxSavedBytes+1))
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
func (s *Analysis) Restore(p *pipeline.Prepared) (*pipeline.Analysis, error) {
	if p == nil || p.Data == nil || p.Scores == nil || p.PCA == nil {
		return nil, errors.New("restore: no prepared data")
	}
	if !s.sameSource(p.Source) {
		return nil, fmt.Errorf("restore: the analysis is of %s, the data prepared are of %s", s.Source, p.Source)
	}
	if err := s.sameData(p); err != nil {
		return nil, err
	}
	return &pipeline.Analysis{
		Prepared:    p,
		Algorithm:   s.Algorithm,
		Options:     s.Options,
		Result:      cloneResult(s.Result),
		Times:       s.Times,
		Peak:        s.Peak,
		Description: s.Describe,
		AsFound:     s.AsFound && s.Other != nil,
		Other:       s.Other.Clone(),
		Stability:   slices.Clone(s.Stability),
	}, nil
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

// The file as JSON. Field names follow result.json's; Z is one string of 0/1 per image,
// like the codes (a 100 000-image analysis stays a few megabytes), A is row-major with
// its dimensions beside it, and every float that can be NaN or ±Inf is a jsonFloat.

type savedFile struct {
	Format    string              `json:"format"`
	Version   int                 `json:"version"`
	Source    savedSource         `json:"source"`
	Load      savedLoad           `json:"load"`
	Algorithm string              `json:"algorithm"`
	Options   savedOptions        `json:"options"`
	Data      savedData           `json:"data"`
	Result    savedResult         `json:"result"`
	Seconds   pipeline.Timings    `json:"seconds"`
	Peak      pipeline.PeakMemory `json:"peak_memory_bytes"`
	// Reading is "as found" when result holds the learner's own form; other_reading is
	// the form not shown (pipeline.Reading), so a reopened analysis can switch as the run's
	// window could.
	Reading string        `json:"reading,omitempty"`
	Other   *savedPathFit `json:"other_reading,omitempty"`
	// Stability is, per feature, the share of fits on half-samples of the images that
	// hold it (pipeline.Analysis.Stability); absent when not checked, and in files saved
	// before it was.
	Stability []float64 `json:"stability,omitempty"`
	// Encoder is what `featurelab encode` codes new images with; absent in files saved
	// before it was, and for pictures too large for it (maxEncoderBytes).
	Encoder *savedEncoder `json:"encoder,omitempty"`
}

type savedSource struct {
	Dir    string `json:"dir,omitempty"`
	Sample string `json:"sample,omitempty"`
}

type savedLoad struct {
	Colour string `json:"colour"`
	Size   string `json:"size"`
	PCA    string `json:"pca"`
}

type savedOptions struct {
	K          int       `json:"k"`
	Lambda2    jsonFloat `json:"lambda2"`
	Restarts   int       `json:"restarts"`
	MaxIter    int       `json:"max_iter"`
	MaxK       int       `json:"max_k"`
	Sweeps     int       `json:"sweeps"`
	Divergence string    `json:"divergence,omitempty"`
	Features   string    `json:"features,omitempty"` // Description.Kind
	Words      int       `json:"words,omitempty"`
	Seed       uint64    `json:"seed"`
	Init       string    `json:"init,omitempty"`
	Chains     int       `json:"chains"`
	KFrom      string    `json:"k_from,omitempty"` // absent before there was a choice: the widest
	Alpha0     jsonFloat `json:"alpha0"`
	SigmaX0    jsonFloat `json:"sigma_x0"`
	SigmaA0    jsonFloat `json:"sigma_a0"`
}

// savedData is the fingerprint of the data the result belongs to.
type savedData struct {
	Names    []string `json:"names"`
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Channels int      `json:"channels"`
	D        int      `json:"d"` // columns of the PCA scores (the pixel values without a PCA)
}

type savedResult struct {
	Algorithm          string            `json:"algorithm"`
	K                  int               `json:"k"`
	Z                  []string          `json:"z"` // N rows of K characters '0' or '1'
	A                  jsonFloats        `json:"a"` // K × D, row-major
	Objective          jsonFloat         `json:"objective"`
	PosteriorObjective jsonFloat         `json:"posterior_objective"`
	BPObjective        jsonFloat         `json:"bp_objective"`
	RestartObjectives  jsonFloats        `json:"restart_objectives,omitempty"`
	Curve              []savedCurvePoint `json:"curve,omitempty"`
	Iterations         int               `json:"iterations"`
	Seconds            jsonFloat         `json:"seconds"`
	Lambda2            jsonFloat         `json:"lambda2"`
	Alpha              jsonFloat         `json:"alpha"`
	SigmaX             jsonFloat         `json:"sigma_x"`
	SigmaA             jsonFloat         `json:"sigma_a"`
	KHistogram         []int             `json:"k_histogram,omitempty"`
	Trace              *savedTrace       `json:"trace,omitempty"`
	MAPZ               *savedAllocation  `json:"map_z,omitempty"`
	MAPLogJoint        jsonFloat         `json:"map_log_joint"`
	PathFits           []savedPathFit    `json:"path_fits,omitempty"`
	ZProbability       jsonFloats        `json:"z_probability,omitempty"` // N × K, row-major (the IBP)
}

// savedPathFit is one K's fit on a stepwise λ² path, so a reopened analysis can switch
// K as the run's window could.
type savedPathFit struct {
	K         int        `json:"k"`
	Z         []string   `json:"z"`
	A         jsonFloats `json:"a"`
	Objective jsonFloat  `json:"objective"`
}

type savedCurvePoint struct {
	K           int       `json:"k"`
	Objective   jsonFloat `json:"objective"`
	BPObjective jsonFloat `json:"bp_objective"`
}

type savedTrace struct {
	K        []int      `json:"k"`
	Alpha    jsonFloats `json:"alpha"`
	SigmaX   jsonFloats `json:"sigma_x"`
	SigmaA   jsonFloats `json:"sigma_a"`
	LogJoint jsonFloats `json:"log_joint"`
	AcceptX  jsonFloat  `json:"accept_x"`
	AcceptA  jsonFloat  `json:"accept_a"`
}

// savedAllocation is a Z with its own K: the IBP's MAP allocation may have another
// number of features than the reported one. K = 0 with no rows is the empty matrix.
type savedAllocation struct {
	K    int      `json:"k"`
	Rows []string `json:"rows"`
}

// file turns s into its JSON form.
func (s *Analysis) file() *savedFile {
	r := s.Result
	f := &savedFile{
		Format:    savedFormat,
		Version:   savedVersion,
		Source:    savedSource{Dir: s.Source.Dir, Sample: s.Source.Sample},
		Load:      savedLoad{Colour: s.Load.Colour, Size: s.Load.Size, PCA: s.Load.PCA},
		Algorithm: s.Algorithm,
		Options: savedOptions{
			K: s.Options.K, Lambda2: jsonFloat(s.Options.Lambda2), Restarts: s.Options.Restarts,
			MaxIter: s.Options.MaxIter, MaxK: s.Options.MaxK, Sweeps: s.Options.Sweeps,
			Divergence: s.Options.Divergence, Seed: s.Options.Seed, Init: s.Options.Init,
			Features: s.Describe.Kind, Words: s.Describe.Words,
			Chains: s.Options.Chains, Alpha0: jsonFloat(s.Options.Alpha0), KFrom: s.Options.KFrom,
			SigmaX0: jsonFloat(s.Options.SigmaX0), SigmaA0: jsonFloat(s.Options.SigmaA0),
		},
		Data: savedData{Names: s.Names, Width: s.Width, Height: s.Height, Channels: s.Channels, D: s.D},
		Result: savedResult{
			Algorithm:          r.Algorithm,
			K:                  r.K,
			Z:                  pipeline.CodeStrings(r.Z),
			A:                  rowMajor(r.A),
			Objective:          jsonFloat(r.Objective),
			PosteriorObjective: jsonFloat(r.PosteriorObjective),
			BPObjective:        jsonFloat(r.BPObjective),
			RestartObjectives:  r.RestartObjectives,
			Iterations:         r.Iterations,
			Seconds:            jsonFloat(r.Seconds),
			Lambda2:            jsonFloat(r.Lambda2),
			Alpha:              jsonFloat(r.Alpha),
			SigmaX:             jsonFloat(r.SigmaX),
			SigmaA:             jsonFloat(r.SigmaA),
			KHistogram:         r.KHistogram,
			MAPLogJoint:        jsonFloat(r.MAPLogJoint),
			ZProbability:       rowMajorOrNil(r.ZProbability),
		},
		Seconds: s.Times,
		Peak:    s.Peak,
	}
	if s.AsFound {
		f.Reading = "as found"
	}
	f.Stability = s.Stability
	f.Encoder = toSavedEncoder(s.Encoder)
	if o := s.Other; o != nil {
		f.Other = &savedPathFit{K: r.K, Z: pipeline.CodeStrings(o.Z), A: rowMajor(o.A), Objective: jsonFloat(r.Objective)}
	}
	for _, c := range r.Curve {
		f.Result.Curve = append(f.Result.Curve, savedCurvePoint{K: c.K, Objective: jsonFloat(c.Objective), BPObjective: jsonFloat(c.BPObjective)})
	}
	if t := r.Trace; t != nil {
		f.Result.Trace = &savedTrace{K: t.K, Alpha: t.Alpha, SigmaX: t.SigmaX, SigmaA: t.SigmaA,
			LogJoint: t.LogJoint, AcceptX: jsonFloat(t.AcceptX), AcceptA: jsonFloat(t.AcceptA)}
	}
	for _, pf := range r.PathFits {
		f.Result.PathFits = append(f.Result.PathFits, savedPathFit{K: pf.K, Z: pipeline.CodeStrings(pf.Z), A: rowMajor(pf.A), Objective: jsonFloat(pf.Objective)})
	}
	if r.MAPZ != nil {
		f.Result.MAPZ = &savedAllocation{}
		if !r.MAPZ.IsEmpty() {
			_, f.Result.MAPZ.K = r.MAPZ.Dims()
			f.Result.MAPZ.Rows = pipeline.CodeStrings(r.MAPZ)
		}
	}
	return f
}

// rowMajorOrNil is rowMajor, nil for no matrix.
func rowMajorOrNil(m *mat.Dense) []float64 {
	if m == nil || m.IsEmpty() {
		return nil
	}
	return rowMajor(m)
}

// rowMajor copies a matrix's entries row after row.
func rowMajor(m *mat.Dense) []float64 {
	r, c := m.Dims()
	out := make([]float64, 0, r*c)
	for i := range r {
		out = append(out, m.RawRowView(i)...)
	}
	return out
}

// decodeSaved reads and checks a saved analysis. Its errors are the cause alone;
// Open puts the file's name in front.
func decodeSaved(b []byte) (*Analysis, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, errors.New("the file is empty")
	}
	// The format and version first, so that another file is named as such and not by
	// the first of its fields that does not fit.
	var head struct {
		Format  any `json:"format"`
		Version any `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) && syn.Offset >= int64(len(b)) {
			return nil, errors.New("the file ends early: it is cut short or was not written to the end")
		}
		if errors.As(err, &syn) {
			return nil, fmt.Errorf("not a Feature Lab analysis: not JSON (%v at byte %d)", syn, syn.Offset)
		}
		// A JSON value that is not an object: the format check says so below.
	}
	if head.Format != savedFormat {
		return nil, fmt.Errorf(`not a Feature Lab analysis: it has no "format": %q`, savedFormat)
	}
	switch version, ok := head.Version.(float64); {
	case !ok:
		text, _ := json.Marshal(head.Version) // one line, whatever the file holds
		return nil, fmt.Errorf(`"version" must be a number, got %s`, text)
	case version > savedVersion:
		return nil, fmt.Errorf("it is format version %v, from a newer Feature Lab; this one reads version %d", version, savedVersion)
	case version != savedVersion:
		return nil, fmt.Errorf("unknown format version %v; this Feature Lab reads version %d", version, savedVersion)
	}
	var f savedFile
	if err := json.Unmarshal(b, &f); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return nil, fmt.Errorf("%s must be %s, got %s", typ.Field, kindName(typ.Type), typ.Value)
		}
		return nil, err
	}
	return f.saved()
}

// kindName names a Go type as the file's reader knows it.
func kindName(t reflect.Type) string {
	if t == reflect.TypeFor[jsonFloat]() {
		return `a number, "NaN", "+Inf" or "-Inf"`
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Uint64:
		return "a whole number ≥ 0"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	case reflect.Struct, reflect.Pointer:
		return "an object"
	}
	return t.String()
}

// saved checks a decoded file and turns it into an Analysis.
func (f *savedFile) saved() (*Analysis, error) {
	s := &Analysis{
		Load:      pipeline.LoadChoices{Colour: f.Load.Colour, Size: f.Load.Size, PCA: f.Load.PCA},
		Algorithm: f.Algorithm,
		Options: learn.Options{
			K: f.Options.K, Lambda2: float64(f.Options.Lambda2), Restarts: f.Options.Restarts,
			MaxIter: f.Options.MaxIter, MaxK: f.Options.MaxK, Sweeps: f.Options.Sweeps,
			Divergence: f.Options.Divergence, Seed: f.Options.Seed, Init: f.Options.Init,
			Chains: f.Options.Chains, Alpha0: float64(f.Options.Alpha0), KFrom: f.Options.KFrom,
			SigmaX0: float64(f.Options.SigmaX0), SigmaA0: float64(f.Options.SigmaA0),
		},
		Times:    f.Seconds,
		Peak:     f.Peak,
		Names:    f.Data.Names,
		Width:    f.Data.Width,
		Height:   f.Data.Height,
		Channels: f.Data.Channels,
		D:        f.Data.D,
	}
	switch src := f.Source; {
	case src.Dir != "" && src.Sample != "":
		return nil, errors.New("source has both a dir and a sample")
	case src.Dir != "":
		if !filepath.IsAbs(src.Dir) {
			return nil, fmt.Errorf("source dir %q is not an absolute path", src.Dir)
		}
		s.Source = pipeline.Source{Dir: src.Dir}
	case slices.Contains(assets.Names(), src.Sample):
		s.Source = pipeline.Source{Sample: src.Sample}
	default:
		return nil, fmt.Errorf("source must be a folder or one of the built-in samples %v, got %q", assets.Names(), src.Sample)
	}
	if _, err := s.Load.Request(s.Source); err != nil {
		return nil, fmt.Errorf("load options: %w", err)
	}
	switch s.Options.KFrom {
	case "":
		// Saved before K could be counted by objects: the widest interval chose it.
		if algorithms.TraitsOf(s.Algorithm).StepsK && s.Options.Lambda2 == 0 {
			s.Options.KFrom = learn.KFromWidest
		}
	case learn.KFromObjects, learn.KFromWidest:
	default:
		return nil, fmt.Errorf("options k_from must be %s or %s, got %q", learn.KFromObjects, learn.KFromWidest, s.Options.KFrom)
	}
	s.Describe = pipeline.Description{Kind: f.Options.Features, Words: f.Options.Words}
	if err := s.Describe.Validate(s.Algorithm); err != nil {
		return nil, fmt.Errorf("options: %w", err)
	}
	if !slices.Contains(algorithms.Names(), s.Algorithm) {
		return nil, fmt.Errorf("algorithm must be one of %s, got %q", strings.Join(algorithms.Names(), ", "), s.Algorithm)
	}
	if err := f.Data.check(); err != nil {
		return nil, err
	}
	res, err := f.Result.result(len(f.Data.Names), f.Data.D)
	if err != nil {
		return nil, err
	}
	s.Result = res
	switch f.Reading {
	case "", "readable":
	case "as found":
		s.AsFound = true
	default:
		return nil, fmt.Errorf(`reading must be "readable" or "as found", got %q`, f.Reading)
	}
	if o := f.Other; o != nil {
		if o.K != res.K {
			return nil, fmt.Errorf("other_reading k is %d, the result's %d", o.K, res.K)
		}
		z, err := allocation("other_reading z", o.Z, len(f.Data.Names), o.K)
		if err != nil {
			return nil, err
		}
		if len(o.A) != o.K*f.Data.D {
			return nil, fmt.Errorf("other_reading a has %d numbers, want k × d = %d × %d", len(o.A), o.K, f.Data.D)
		}
		if err := drawable("other_reading a", o.A, f.Data.D); err != nil {
			return nil, err
		}
		s.Other = &pipeline.Reading{Z: z, A: mat.NewDense(o.K, f.Data.D, o.A)}
	}
	if f.Stability != nil {
		if len(f.Stability) != res.K {
			return nil, fmt.Errorf("stability has %d shares, the result %d features", len(f.Stability), res.K)
		}
		for k, v := range f.Stability {
			if !(v >= 0 && v <= 1) {
				return nil, fmt.Errorf("stability of feature %d must be in [0, 1], got %v", k+1, v)
			}
		}
		s.Stability = f.Stability
	}
	if f.Encoder != nil {
		if s.Encoder, err = f.Encoder.encoder(f.Data, res.K); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// check checks the fingerprint's dimensions.
func (d *savedData) check() error {
	switch {
	case len(d.Names) == 0:
		return errors.New("data has no image names")
	case d.Width < 1 || d.Width > maxSavedSide || d.Height < 1 || d.Height > maxSavedSide:
		return fmt.Errorf("data size must be 1…%d on a side, got %d×%d", maxSavedSide, d.Width, d.Height)
	case d.Channels != 1 && d.Channels != 3:
		return fmt.Errorf("data channels must be 1 or 3, got %d", d.Channels)
	case d.D < 1 || int64(d.D) > int64(d.Width)*int64(d.Height)*int64(d.Channels):
		// A PCA keeps at most as many dimensions as an image has values.
		return fmt.Errorf("data d must be 1…%d for %d×%d×%d images, got %d",
			int64(d.Width)*int64(d.Height)*int64(d.Channels), d.Width, d.Height, d.Channels, d.D)
	}
	return nil
}

// result checks the result's dimensions against each other and the n images of d
// dimensions, and builds the learn.Result.
func (r *savedResult) result(n, d int) (*learn.Result, error) {
	if r.K < 1 || r.K > maxSavedK {
		return nil, fmt.Errorf("result k must be 1…%d, got %d", maxSavedK, r.K)
	}
	Z, err := allocation("result z", r.Z, n, r.K)
	if err != nil {
		return nil, err
	}
	if int64(len(r.A)) != int64(r.K)*int64(d) {
		return nil, fmt.Errorf("result a has %d numbers, want k × d = %d × %d = %d", len(r.A), r.K, d, int64(r.K)*int64(d))
	}
	if err := drawable("result a", r.A, d); err != nil {
		return nil, err
	}
	res := &learn.Result{
		Algorithm:          r.Algorithm,
		Z:                  Z,
		A:                  mat.NewDense(r.K, d, r.A),
		K:                  r.K,
		Objective:          float64(r.Objective),
		PosteriorObjective: float64(r.PosteriorObjective),
		BPObjective:        float64(r.BPObjective),
		RestartObjectives:  r.RestartObjectives,
		Iterations:         r.Iterations,
		Seconds:            float64(r.Seconds),
		Lambda2:            float64(r.Lambda2),
		Alpha:              float64(r.Alpha),
		SigmaX:             float64(r.SigmaX),
		SigmaA:             float64(r.SigmaA),
		KHistogram:         r.KHistogram,
		MAPLogJoint:        float64(r.MAPLogJoint),
	}
	if len(r.Curve) > maxSavedK {
		return nil, fmt.Errorf("result curve has %d points, more than the %d K a run can try", len(r.Curve), maxSavedK)
	}
	for _, c := range r.Curve {
		if c.K < 0 || c.K > maxSavedK {
			return nil, fmt.Errorf("result curve has k = %d, want 0…%d", c.K, maxSavedK)
		}
		res.Curve = append(res.Curve, learn.CurvePoint{K: c.K, Objective: float64(c.Objective), BPObjective: float64(c.BPObjective)})
	}
	if len(r.ZProbability) > 0 {
		if int64(len(r.ZProbability)) != int64(n)*int64(r.K) {
			return nil, fmt.Errorf("result z_probability has %d numbers, want n × k = %d × %d", len(r.ZProbability), n, r.K)
		}
		for _, p := range r.ZProbability {
			if !(p >= 0 && p <= 1) {
				return nil, fmt.Errorf("result z_probability holds %v, want probabilities in [0, 1]", p)
			}
		}
		res.ZProbability = mat.NewDense(n, r.K, r.ZProbability)
	}
	if len(r.KHistogram) > maxSavedK+1 {
		return nil, fmt.Errorf("result k_histogram has %d counts, want at most one per K 0…%d", len(r.KHistogram), maxSavedK)
	}
	for k, c := range r.KHistogram {
		if c < 0 {
			return nil, fmt.Errorf("result k_histogram[%d] is %d, a count", k, c)
		}
	}
	if t := r.Trace; t != nil {
		s := len(t.K)
		if len(t.Alpha) != s || len(t.SigmaX) != s || len(t.SigmaA) != s || len(t.LogJoint) != s {
			return nil, fmt.Errorf("result trace lists have %d, %d, %d, %d and %d sweeps (k, alpha, sigma_x, sigma_a, log_joint), want one length",
				s, len(t.Alpha), len(t.SigmaX), len(t.SigmaA), len(t.LogJoint))
		}
		for i, k := range t.K {
			if k < 0 || k > maxSavedK {
				return nil, fmt.Errorf("result trace k[%d] is %d, want a number of features 0…%d", i, k, maxSavedK)
			}
		}
		res.Trace = &learn.IBPTrace{K: t.K, Alpha: t.Alpha, SigmaX: t.SigmaX, SigmaA: t.SigmaA,
			LogJoint: t.LogJoint, AcceptX: float64(t.AcceptX), AcceptA: float64(t.AcceptA)}
	}
	for i, pf := range r.PathFits {
		name := fmt.Sprintf("result path_fits[%d]", i)
		if pf.K < 1 || pf.K > maxSavedK {
			return nil, fmt.Errorf("%s k must be 1…%d, got %d", name, maxSavedK, pf.K)
		}
		z, err := allocation(name+" z", pf.Z, n, pf.K)
		if err != nil {
			return nil, err
		}
		if int64(len(pf.A)) != int64(pf.K)*int64(d) {
			return nil, fmt.Errorf("%s a has %d numbers, want k × d = %d × %d", name, len(pf.A), pf.K, d)
		}
		if err := drawable(name+" a", pf.A, d); err != nil {
			return nil, err
		}
		res.PathFits = append(res.PathFits, learn.PathFit{K: pf.K, Z: z, A: mat.NewDense(pf.K, d, pf.A), Objective: float64(pf.Objective)})
	}
	if m := r.MAPZ; m != nil {
		switch {
		case m.K < 0 || m.K > maxSavedK:
			return nil, fmt.Errorf("result map_z k must be 0…%d, got %d", maxSavedK, m.K)
		case m.K == 0 && len(m.Rows) == 0:
			res.MAPZ = &mat.Dense{}
		default:
			if res.MAPZ, err = allocation("result map_z", m.Rows, n, m.K); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// allocation reads n rows of k characters '0' or '1' into an n × k matrix.
// drawable checks a saved feature matrix (row-major, d columns) for values a view cannot
// draw: NaN, ±Inf, or beyond ±maxSavedValue.
func drawable(name string, a []float64, d int) error {
	for i, v := range a {
		if math.IsNaN(v) || math.Abs(v) > maxSavedValue {
			return fmt.Errorf("%s row %d, column %d is %v: features must be finite numbers within ±%.0e", name, i/d+1, i%d+1, v, maxSavedValue)
		}
	}
	return nil
}

func allocation(name string, rows []string, n, k int) (*mat.Dense, error) {
	if len(rows) != n {
		return nil, fmt.Errorf("%s has %d rows, want one per image: %d", name, len(rows), n)
	}
	if k == 0 {
		return nil, fmt.Errorf("%s has rows but k = 0", name)
	}
	// The rows' lengths before the matrix: n × k floats take 8 bytes for each character
	// the file actually holds, never what its k claims.
	for i, row := range rows {
		if len(row) != k {
			return nil, fmt.Errorf("%s row %d has %d entries, want k = %d", name, i, len(row), k)
		}
	}
	Z := mat.NewDense(n, k, nil)
	for i, row := range rows {
		z := Z.RawRowView(i)
		for j := range len(row) {
			switch row[j] {
			case '1':
				z[j] = 1
			case '0':
			default:
				return nil, fmt.Errorf("%s row %d has %q at %d, want 0 or 1", name, i, row[j], j)
			}
		}
	}
	return Z, nil
}
