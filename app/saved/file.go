package saved

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/assets"
)

// The file as JSON (version 2). Its "result" is result.json: the FullResult that
// FullResultOf gives `analyze --out`, so the result is described once and reads back as
// result.json says it (a value written through Finite reads as −1). Beside it are what
// reopening needs that result.json does not say: where the images came from and how they
// were loaded, the options the run used, the fits of the other K of a stepwise λ² path,
// the IBP's trace and MAP allocation, the reading not shown, and the encoder. Outside
// the result a Z is one string of 0/1 per image, like the codes, a matrix is row-major
// with its dimensions known from the result, and a float that can be NaN or ±Inf is a
// jsonFloat, which keeps them.

type savedFile struct {
	Format  string       `json:"format"`
	Version int          `json:"version"`
	Source  savedSource  `json:"source"`
	Load    savedLoad    `json:"load"`
	Options savedOptions `json:"options"`
	Result  FullResult   `json:"result"`
	// PathFits are the best fit of every K on a stepwise λ² path (learn.Result.PathFits),
	// so that a reopened analysis can switch K as the run's window could.
	PathFits []savedPathFit `json:"path_fits,omitempty"`
	// IBP is what the IBP sampler leaves beyond result.json: its trace but K (which is
	// result.k_trace) and its MAP allocation.
	IBP *savedIBP `json:"ibp,omitempty"`
	// Other is the reading not shown (result.Analysis.Other), with result.k features:
	// the readable form when result.reading is "as found", the learner's own otherwise.
	Other *savedReading `json:"other_reading,omitempty"`
	// Encoder is what `featurelab encode` codes new images with; absent in files saved
	// before it was, for learners that read histograms or visual words, and for
	// pictures too large for it (maxEncoderBytes).
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
	// Exposure is what the load did about exposure (pipeline.ExposureChoices); absent in
	// files saved before it could do anything: those kept the pictures as taken.
	Exposure string `json:"exposure,omitempty"`
}

// savedOptions are the learn.Options the run used, as it used them, and what its
// learner read of each image; result.json gives only some of them. Every learner
// parameter (algorithms.OptionParams) is written under its key, "_" for "-", so that a
// parameter added to a learner is saved and read back with no change here; the rest of
// the options, which no parameter sets, are savedRunOptions.
type savedOptions struct {
	Options  learn.Options
	Describe pipeline.Description
}

// savedRunOptions are the options of a run that no learner parameter sets.
type savedRunOptions struct {
	MaxIter  int       `json:"max_iter"`
	MaxK     int       `json:"max_k"`
	Features string    `json:"features,omitempty"` // Description.Kind
	Words    int       `json:"words,omitempty"`
	Init     string    `json:"init,omitempty"`
	Alpha0   jsonFloat `json:"alpha0"`
	SigmaX0  jsonFloat `json:"sigma_x0"`
	SigmaA0  jsonFloat `json:"sigma_a0"`
}

// optionKey is a parameter's key in a saved file: "k_from" for --k-from.
func optionKey(key string) string { return strings.ReplaceAll(key, "-", "_") }

// MarshalJSON writes every learner parameter's value, a choice left empty left out,
// then the run's other options.
func (s savedOptions) MarshalJSON() ([]byte, error) {
	o := s.Options
	var b bytes.Buffer
	b.WriteByte('{')
	for _, p := range algorithms.OptionParams() {
		var v any
		switch f := p.Field(&o).(type) {
		case *float64:
			v = jsonFloat(*f)
		case *string:
			if *f == "" {
				continue
			}
			v = *f
		case *int:
			v = *f
		case *uint64:
			v = *f
		case *bool:
			v = *f
		default:
			return nil, fmt.Errorf("option %s: a field of type %T", p.Key, f)
		}
		key, _ := json.Marshal(optionKey(p.Key))
		value, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("option %s: %w", p.Key, err)
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(value)
		b.WriteByte(',')
	}
	rest, err := json.Marshal(savedRunOptions{MaxIter: o.MaxIter, MaxK: o.MaxK, Features: s.Describe.Kind, Words: s.Describe.Words,
		Init: o.Init, Alpha0: jsonFloat(o.Alpha0), SigmaX0: jsonFloat(o.SigmaX0), SigmaA0: jsonFloat(o.SigmaA0)})
	if err != nil {
		return nil, err
	}
	b.Write(rest[1:]) // its fields and closing brace, after the parameters'
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes; a key it does not know is left unread,
// and a value of the wrong type is a json.UnmarshalTypeError that names its key.
func (s *savedOptions) UnmarshalJSON(b []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	for _, p := range algorithms.OptionParams() {
		raw, ok := fields[optionKey(p.Key)]
		if !ok {
			continue
		}
		var err error
		if f, ok := p.Field(&s.Options).(*float64); ok {
			var v jsonFloat
			err = json.Unmarshal(raw, &v)
			*f = float64(v)
		} else {
			err = json.Unmarshal(raw, p.Field(&s.Options))
		}
		if typ, ok := err.(*json.UnmarshalTypeError); ok {
			typ.Field = optionKey(p.Key)
			return typ
		} else if err != nil {
			return err
		}
	}
	var run savedRunOptions
	if err := json.Unmarshal(b, &run); err != nil {
		return err
	}
	o := &s.Options
	o.MaxIter, o.MaxK, o.Init = run.MaxIter, run.MaxK, run.Init
	o.Alpha0, o.SigmaX0, o.SigmaA0 = float64(run.Alpha0), float64(run.SigmaX0), float64(run.SigmaA0)
	s.Describe = pipeline.Description{Kind: run.Features, Words: run.Words}
	return nil
}

// savedPathFit is one K's fit on a stepwise λ² path.
type savedPathFit struct {
	K         int        `json:"k"`
	Z         []string   `json:"z"` // a row of K characters '0' or '1' per image
	A         jsonFloats `json:"a"` // K × D, row-major
	Objective jsonFloat  `json:"objective"`
}

// savedReading is a Z and an A of the result's K and D.
type savedReading struct {
	Z []string   `json:"z"`
	A jsonFloats `json:"a"`
}

type savedIBP struct {
	Trace       *savedTrace      `json:"trace,omitempty"`
	MAPZ        *savedAllocation `json:"map_z,omitempty"`
	MAPLogJoint jsonFloat        `json:"map_log_joint"`
}

// savedTrace is learn.IBPTrace but K: a list per sweep, as many as result.k_trace has.
type savedTrace struct {
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

// fileOf gathers what Save writes.
func fileOf(a *result.Analysis, load pipeline.LoadChoices) (*savedFile, error) {
	if a.Result == nil || a.Result.Z == nil || a.Result.A == nil || a.Data == nil || a.Scores == nil || a.PCA == nil {
		return nil, errors.New("the analysis has no result to save")
	}
	r := a.Result
	if r.K < 1 {
		// Open refuses it: every view of a result is one of features.
		return nil, errors.New("the analysis has no features to save")
	}
	src := savedSource{Sample: a.Source.SampleName()}
	if a.Source.Dir != "" {
		// The file may be opened from another working directory.
		abs, err := filepath.Abs(a.Source.Dir)
		if err != nil {
			return nil, err
		}
		src = savedSource{Dir: abs}
	}
	// A file whose load options cannot be read back could never be opened.
	if _, err := load.Request(pipeline.Source{Dir: src.Dir, Sample: src.Sample}); err != nil {
		return nil, fmt.Errorf("load options: %w", err)
	}
	enc, err := encoderOf(a)
	if err != nil {
		return nil, err
	}
	f := &savedFile{
		Format:  savedFormat,
		Version: savedVersion,
		Source:  src,
		// The exposure the data were loaded with, whatever the caller's choices say.
		Load:    savedLoad{Colour: load.Colour, Size: load.Size, PCA: load.PCA, Exposure: cmp.Or(a.Exposure.Mode, pipeline.ExposureNone)},
		Options: savedOptions{Options: a.Options, Describe: a.Description},
		Result:  FullResultOf(a),
		Encoder: toSavedEncoder(enc),
	}
	for _, pf := range r.PathFits {
		f.PathFits = append(f.PathFits, savedPathFit{K: pf.K, Z: result.CodeStrings(pf.Z), A: rowMajor(pf.A), Objective: jsonFloat(pf.Objective)})
	}
	if r.Trace != nil || r.MAPZ != nil || r.MAPLogJoint != 0 {
		f.IBP = &savedIBP{MAPLogJoint: jsonFloat(r.MAPLogJoint)}
		if t := r.Trace; t != nil {
			f.IBP.Trace = &savedTrace{Alpha: t.Alpha, SigmaX: t.SigmaX, SigmaA: t.SigmaA,
				LogJoint: t.LogJoint, AcceptX: jsonFloat(t.AcceptX), AcceptA: jsonFloat(t.AcceptA)}
		}
		if r.MAPZ != nil {
			f.IBP.MAPZ = &savedAllocation{}
			if !r.MAPZ.IsEmpty() {
				_, f.IBP.MAPZ.K = r.MAPZ.Dims()
				f.IBP.MAPZ.Rows = result.CodeStrings(r.MAPZ)
			}
		}
	}
	if other := a.Other; other != nil {
		f.Other = &savedReading{Z: result.CodeStrings(other.Z), A: rowMajor(other.A)}
	}
	return f, nil
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
	f, err := parseSaved(b)
	if err != nil {
		return nil, err
	}
	return f.saved()
}

// parseSaved reads a saved file of either version into the version-2 form, checking
// only that it is JSON of the right types; saved checks the rest.
func parseSaved(b []byte) (*savedFile, error) {
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
		return nil, fmt.Errorf("it is format version %v, from a newer Feature Lab; this one reads versions 1 and %d", version, savedVersion)
	case version == 1:
		if err := checkShape(b, "data.names", savedListsV1); err != nil {
			return nil, err
		}
		var old savedFileV1
		if err := unmarshalSaved(b, &old); err != nil {
			return nil, err
		}
		return old.upgrade()
	case version != savedVersion:
		return nil, fmt.Errorf("unknown format version %v; this Feature Lab reads versions 1 and %d", version, savedVersion)
	}
	if err := checkShape(b, "result.names", savedLists); err != nil {
		return nil, err
	}
	f := new(savedFile)
	if err := unmarshalSaved(b, f); err != nil {
		return nil, err
	}
	return f, nil
}

// unmarshalSaved decodes a whole file into v, saying which field has the wrong type.
func unmarshalSaved(b []byte, v any) error {
	err := json.Unmarshal(b, v)
	var typ *json.UnmarshalTypeError
	var b64 base64.CorruptInputError
	switch {
	case errors.As(err, &typ):
		// encoding/json names the embedded Summary in the path; the file does not.
		field := strings.Replace(typ.Field, "result.Summary.", "result.", 1)
		return fmt.Errorf("%s must be %s, got %s", field, kindName(typ.Type), typ.Value)
	case errors.As(err, &b64):
		// Only result.z holds base64 that encoding/json decodes (result.json's [][]uint8).
		return fmt.Errorf("result z has a row that is not base64: %v", b64)
	}
	return err
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
	case reflect.Uint8:
		return "0 or 1"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	case reflect.Struct, reflect.Pointer, reflect.Map:
		return "an object"
	}
	return t.String()
}

// saved checks a decoded file and turns it into an Analysis.
func (f *savedFile) saved() (*Analysis, error) {
	r := &f.Result
	alg, err := algorithms.Lookup(r.Algorithm)
	if err != nil {
		return nil, fmt.Errorf("result algorithm must be one of %s, got %q", strings.Join(algorithms.Names(), ", "), r.Algorithm)
	}
	s := &Analysis{
		Load:      pipeline.LoadChoices{Colour: f.Load.Colour, Size: f.Load.Size, PCA: f.Load.PCA, Exposure: cmp.Or(f.Load.Exposure, pipeline.ExposureNone)},
		Algorithm: alg,
		Options:   f.Options.Options,
		Times:     r.Seconds,
		Peak:      r.PeakMemory,
		Names:     r.Names,
		Width:     r.Width,
		Height:    r.Height,
		Channels:  r.Channels,
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
		if s.Algorithm.ChoosesK(s.Options) {
			s.Options.KFrom = learn.KFromWidest
		}
	case learn.KFromObjects, learn.KFromWidest:
	default:
		return nil, fmt.Errorf("options k_from must be %s or %s, got %q", learn.KFromObjects, learn.KFromWidest, s.Options.KFrom)
	}
	switch s.Options.AlphaPrior {
	case "", learn.AlphaGamma, learn.AlphaTied: // "": saved before there was a choice, the papers' Gamma
	default:
		return nil, fmt.Errorf("options alpha_prior must be %s or %s, got %q", learn.AlphaGamma, learn.AlphaTied, s.Options.AlphaPrior)
	}
	s.Describe = f.Options.Describe
	if err := s.Describe.Validate(s.Algorithm); err != nil {
		return nil, fmt.Errorf("options: %w", err)
	}
	if err := checkSize("result", len(r.Names), r.Width, r.Height, r.Channels); err != nil {
		return nil, err
	}
	res, d, err := f.result()
	if err != nil {
		return nil, err
	}
	s.Result, s.D = res, d
	switch r.Reading {
	case "", "readable":
	case "as found":
		s.AsFound = true
	default:
		return nil, fmt.Errorf(`result reading must be "readable" or "as found", got %q`, r.Reading)
	}
	if o := f.Other; o != nil {
		z, err := allocation("other_reading z", o.Z, len(s.Names), res.K)
		if err != nil {
			return nil, err
		}
		if err := matrix("other_reading a", o.A, res.K, d); err != nil {
			return nil, err
		}
		s.Other = &pipeline.Reading{Z: z, A: mat.NewDense(res.K, d, o.A)}
	}
	if s.Stability, err = stabilityOf(r.PerFeature, res.K); err != nil {
		return nil, err
	}
	s.Separation = separationOf(r.PerFeature, res.K)
	if f.Encoder != nil {
		if s.Encoder, err = f.Encoder.encoder(s.Width, s.Height, s.Channels, res.K); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkSize checks the data's fingerprint, which the section called what holds: images,
// and the working size.
func checkSize(what string, n, width, height, channels int) error {
	switch {
	case n == 0:
		return fmt.Errorf("%s has no image names", what)
	case width < 1 || width > maxSavedSide || height < 1 || height > maxSavedSide:
		return fmt.Errorf("%s size must be 1…%d on a side, got %d×%d", what, maxSavedSide, width, height)
	case channels != 1 && channels != 3:
		return fmt.Errorf("%s channels must be 1 or 3, got %d", what, channels)
	}
	return nil
}

// checkD checks d, the columns of the PCA scores, which the file calls name: a PCA
// keeps at most as many dimensions as an image has values.
func checkD(name string, d, width, height, channels int) error {
	if p := int64(width) * int64(height) * int64(channels); d < 1 || int64(d) > p {
		return fmt.Errorf("%s must be 1…%d for %d×%d×%d images, got %d", name, p, width, height, channels, d)
	}
	return nil
}

// result checks the result's dimensions against each other and its images, and builds
// the learn.Result with d, the columns of A and of the PCA scores it was fitted on.
func (f *savedFile) result() (*learn.Result, int, error) {
	r := &f.Result
	n, k := len(r.Names), r.K
	if k < 1 || k > maxSavedK {
		return nil, 0, fmt.Errorf("result k must be 1…%d, got %d", maxSavedK, k)
	}
	if len(r.A) != k {
		return nil, 0, fmt.Errorf("result a has %d rows, want k = %d", len(r.A), k)
	}
	d := len(r.A[0])
	if err := checkD("result a rows' length", d, r.Width, r.Height, r.Channels); err != nil {
		return nil, 0, err
	}
	flat := make([]float64, 0, k*d)
	for i, row := range r.A {
		if len(row) != d {
			return nil, 0, fmt.Errorf("result a row %d has %d numbers, row 1 %d", i+1, len(row), d)
		}
		flat = append(flat, row...)
	}
	if err := drawable("result a", flat, d); err != nil {
		return nil, 0, err
	}
	if len(r.Z) != n {
		return nil, 0, fmt.Errorf("result z has %d rows, want one per image: %d", len(r.Z), n)
	}
	// The rows' lengths before the matrix, as allocation does.
	for i, row := range r.Z {
		if len(row) != k {
			return nil, 0, fmt.Errorf("result z row %d has %d entries, want k = %d", i, len(row), k)
		}
	}
	Z := mat.NewDense(n, k, nil)
	for i, row := range r.Z {
		z := Z.RawRowView(i)
		for j, v := range row {
			if v > 1 {
				return nil, 0, fmt.Errorf("result z row %d has %d at %d, want 0 or 1", i, v, j)
			}
			z[j] = float64(v)
		}
	}
	res := &learn.Result{
		Algorithm:          r.Algorithm,
		Z:                  Z,
		A:                  mat.NewDense(k, d, flat),
		K:                  k,
		Objective:          r.Objective,
		PosteriorObjective: r.PosteriorObjective,
		BPObjective:        r.BPObjective,
		RestartObjectives:  r.RestartObjectives,
		Iterations:         r.Iterations,
		Lambda2:            r.Lambda2,
		Alpha:              r.Alpha,
		LogAlpha:           r.LogAlpha,
		SigmaX:             r.SigmaX,
		SigmaA:             r.SigmaA,
		KHistogram:         r.KHistogram,
	}
	if len(r.Curve) > maxSavedK {
		return nil, 0, fmt.Errorf("result curve has %d points, more than the %d K a run can try", len(r.Curve), maxSavedK)
	}
	for _, c := range r.Curve {
		if c.K < 0 || c.K > maxSavedK {
			return nil, 0, fmt.Errorf("result curve has k = %d, want 0…%d", c.K, maxSavedK)
		}
		res.Curve = append(res.Curve, learn.CurvePoint{K: c.K, Objective: c.Objective, BPObjective: c.BPObjective})
	}
	if len(r.KHistogram) > maxSavedK+1 {
		return nil, 0, fmt.Errorf("result k_histogram has %d counts, want at most one per K 0…%d", len(r.KHistogram), maxSavedK)
	}
	for k, c := range r.KHistogram {
		if c < 0 {
			return nil, 0, fmt.Errorf("result k_histogram[%d] is %d, a count", k, c)
		}
	}
	for i, k := range r.KTrace {
		if k < 0 || k > maxSavedK {
			return nil, 0, fmt.Errorf("result k_trace[%d] is %d, want a number of features 0…%d", i, k, maxSavedK)
		}
	}
	if zp := r.ZProbability; len(zp) > 0 {
		if len(zp) != n {
			return nil, 0, fmt.Errorf("result z_probability has %d rows, want one per image: %d", len(zp), n)
		}
		P := mat.NewDense(n, k, nil)
		for i, row := range zp {
			if len(row) != k {
				return nil, 0, fmt.Errorf("result z_probability row %d has %d entries, want k = %d", i+1, len(row), k)
			}
			for j, p := range row {
				if !(p >= 0 && p <= 1) {
					return nil, 0, fmt.Errorf("result z_probability row %d holds %v, want probabilities in [0, 1]", i+1, p)
				}
				P.Set(i, j, p)
			}
		}
		res.ZProbability = P
	}
	if err := f.IBP.addTo(res, r.KTrace, n); err != nil {
		return nil, 0, err
	}
	for i, pf := range f.PathFits {
		name := fmt.Sprintf("path_fits[%d]", i)
		if pf.K < 1 || pf.K > maxSavedK {
			return nil, 0, fmt.Errorf("%s k must be 1…%d, got %d", name, maxSavedK, pf.K)
		}
		z, err := allocation(name+" z", pf.Z, n, pf.K)
		if err != nil {
			return nil, 0, err
		}
		if err := matrix(name+" a", pf.A, pf.K, d); err != nil {
			return nil, 0, err
		}
		res.PathFits = append(res.PathFits, learn.PathFit{K: pf.K, Z: z, A: mat.NewDense(pf.K, d, pf.A), Objective: float64(pf.Objective)})
	}
	return res, d, nil
}

// addTo checks the IBP section against result.k_trace and the n images and puts the
// trace and the MAP allocation into res. A nil section is a learner other than the IBP.
func (b *savedIBP) addTo(res *learn.Result, kTrace []int, n int) error {
	if b == nil {
		if len(kTrace) > 0 {
			return fmt.Errorf("result k_trace has %d sweeps, but the file has no ibp trace", len(kTrace))
		}
		return nil
	}
	res.MAPLogJoint = float64(b.MAPLogJoint)
	if t := b.Trace; t != nil {
		s := len(kTrace)
		if len(t.Alpha) != s || len(t.SigmaX) != s || len(t.SigmaA) != s || len(t.LogJoint) != s {
			return fmt.Errorf("ibp trace lists have %d, %d, %d, %d and %d sweeps (result k_trace, alpha, sigma_x, sigma_a, log_joint), want one length",
				s, len(t.Alpha), len(t.SigmaX), len(t.SigmaA), len(t.LogJoint))
		}
		res.Trace = &learn.IBPTrace{K: kTrace, Alpha: t.Alpha, SigmaX: t.SigmaX, SigmaA: t.SigmaA,
			LogJoint: t.LogJoint, AcceptX: float64(t.AcceptX), AcceptA: float64(t.AcceptA)}
	} else if len(kTrace) > 0 {
		return fmt.Errorf("result k_trace has %d sweeps, but the file has no ibp trace", len(kTrace))
	}
	if m := b.MAPZ; m != nil {
		switch {
		case m.K < 0 || m.K > maxSavedK:
			return fmt.Errorf("ibp map_z k must be 0…%d, got %d", maxSavedK, m.K)
		case m.K == 0 && len(m.Rows) == 0:
			res.MAPZ = &mat.Dense{}
		default:
			z, err := allocation("ibp map_z", m.Rows, n, m.K)
			if err != nil {
				return err
			}
			res.MAPZ = z
		}
	}
	return nil
}

// stabilityOf reads Analysis.Stability back from result.per_feature: a share for each
// of the k features, or none.
func stabilityOf(per []FeatureSummary, k int) ([]float64, error) {
	var out []float64
	for i, fs := range per {
		if fs.Stability == nil {
			continue
		}
		if v := *fs.Stability; !(v >= 0 && v <= 1) {
			return nil, fmt.Errorf("result per_feature[%d] stability must be in [0, 1], got %v", i, v)
		}
		out = append(out, *fs.Stability)
	}
	if out != nil && (len(out) != k || len(per) != k) {
		return nil, fmt.Errorf("result per_feature gives the stability of %d features, want all %d or none", len(out), k)
	}
	return out, nil
}

// separationOf reads Analysis.Separation back from result.per_feature: a value for each
// of the k features (NaN where none is given: a feature of one image, the base), or nil
// when the file gives none or not one entry a feature.
func separationOf(per []FeatureSummary, k int) []float64 {
	if len(per) != k {
		return nil
	}
	out := make([]float64, k)
	given := false
	for i, fs := range per {
		out[i] = math.NaN()
		if fs.Separation != nil && !math.IsInf(*fs.Separation, 0) {
			out[i], given = *fs.Separation, true
		}
	}
	if !given {
		return nil
	}
	return out
}

// matrix checks that a row-major k × d matrix has its k·d numbers, each drawable.
func matrix(name string, a []float64, k, d int) error {
	if int64(len(a)) != int64(k)*int64(d) {
		return fmt.Errorf("%s has %d numbers, want k × d = %d × %d = %d", name, len(a), k, d, int64(k)*int64(d))
	}
	return drawable(name, a, d)
}

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

// allocation reads n rows of k characters '0' or '1' into an n × k matrix.
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
