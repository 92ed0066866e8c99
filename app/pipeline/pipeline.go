package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"runtime"
	"sync"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/algorithms/selection"
	"featurelab/app/budget"
	"featurelab/app/jobs"
	"featurelab/imgproc"
	"featurelab/pca"
)

// DefaultPCA is the number of principal components kept unless the user says otherwise.
const DefaultPCA = 100

// PCASeed seeds the randomized PCA of large folders. It is fixed, not the algorithm's
// --seed: changing the seed of K-means must not change the data it clusters.
const PCASeed = 1

// Request is one analysis: where the images come from, how to read them, how many
// principal components to keep, and which algorithm to run with which options.
type Request struct {
	Source    Source
	Load      imgproc.Options
	PCA       int // components; 0 = no PCA (the reference's --pca 0 mode)
	Algorithm *algorithms.Algorithm
	Options   learn.Options
	Describe  Description // what the learner reads of each image; the PCA scores by default
	// Exposure is ExposureAuto (or empty) to divide each picture's exposure gain out
	// before the PCA where the pictures tell it, ExposureNone to keep them as taken.
	Exposure string
}

// pcaOptions is how the request's data are projected. It does not depend on the
// algorithm's options: the same folder gives the same scores whatever is run on them.
func (req Request) pcaOptions() pca.Options {
	return pca.Options{Components: req.PCA, Seed: PCASeed, Workers: req.Load.Workers}
}

// Timings holds the seconds each stage took.
type Timings struct {
	Load      float64 `json:"load"`
	PCA       float64 `json:"pca"`
	Algorithm float64 `json:"algorithm"`
	// Describe is the time taken to describe the images for the learner when it reads
	// something other than the PCA scores (histograms, visual words).
	Describe float64 `json:"describe,omitempty"`
	// Stability is the time taken to check each feature on half-samples of the images
	// (selection.Stability).
	Stability float64 `json:"stability,omitempty"`
	// Reading is the time taken to put the chosen fit in its readable form (Algorithm
	// is the learner's run, with the objects rule that chose its K).
	Reading float64 `json:"reading,omitempty"`
}

// PeakMemory is the process's peak resident memory, in bytes, at the end of each stage
// (Linux's VmHWM; 0 where the system does not say). It only grows, so each figure is
// the peak of its stage and the ones before.
type PeakMemory struct {
	Load      int64 `json:"load"`
	PCA       int64 `json:"pca"`
	Algorithm int64 `json:"algorithm"`
}

// Prepared is a loaded data set with its PCA: what every algorithm run starts from.
type Prepared struct {
	Source Source
	Data   *imgproc.Dataset
	PCA    *pca.Model
	Scores *mat.Dense // N × D, the X every algorithm reads
	Times  Timings
	Peak   PeakMemory
	// Exposure is what the load did about each picture's exposure.
	Exposure ExposureHandling
	// workers is how many goroutines the reading of a fit may use (the load's; 0 for
	// every core).
	workers int

	thumbOnce sync.Once
	thumbs    []image.Image

	shrunkOnce sync.Once
	shrunk     *pca.Model // the PCA followed by the shrink to thumbnail size
	shrunkSize image.Point

	objOnce sync.Once
	objs    *selection.Objects // the objects rule on the scores (objects)
}

// The phases of a run that are not the learner's, as its status line names them
// (jobs.Tracker.Phase): every one reports, so that none looks like a hang.
const (
	phaseMatrix       = "Making the data matrix"
	phaseExposure     = "Measuring each picture's exposure"
	phasePCA          = "Computing PCA"
	phaseBlur         = "Seeing the pictures through a slight blur"
	phaseObjects      = "Counting the objects on each K"
	phaseShifts       = "Modelling small shifts of the features"
	phaseObjectsAgain = "Counting the objects on each K, small shifts taken out"
	phaseReading      = "Reading each feature: adds or removes"
	phaseStability    = "Checking each feature on half the images"
)

// readingEstimate is the time the objects rule and the reading take after a λ² path
// that stops at K = stop, from the time the blur metric took for D components: reading
// a fit of K features maps them back to pictures and prepares each (about K/D of the blur
// metric's work, from the pixels and the components alike), and the rule reads up to
// every K of the path. It comes closer to the true time than the path's clock alone,
// which leaves the reading out. It is nil, and the path's time left its own, when the
// blur metric was made before (a second run on the same data).
func readingEstimate(blur time.Duration, D int) func(stop int) time.Duration {
	if blur < time.Millisecond || D < 1 {
		return nil
	}
	return func(stop int) time.Duration {
		fits := float64(stop*(stop+1)) / 2 // the features of every K up to stop
		return time.Duration(readingPerFeature * fits / float64(D) * float64(blur))
	}
}

// readingPerFeature scales readingEstimate: a feature's reading against one feature's
// share of the blur metric.
const readingPerFeature = 1.5

// runSlack is the memory a run may use over its estimate before the collector works
// harder: the reading's garbage is large pointer-free arrays, whose collection takes a
// few milliseconds; with the 256 MB of the other stages that garbage is left
// uncollected, and it raises the run's peak.
const runSlack = 32 << 20

// readingBytes is what reading the fits of a run on p holds at once, about: the blurred
// component pictures' band (pca.BlurMetricBytes) and, per worker, a few pictures.
func (p *Prepared) readingBytes() int64 {
	if p.PCA == nil || p.PCA.Identity {
		return 0
	}
	return budget.Reading(p.Workers(), p.PCA.P)
}

// Workers is how many goroutines the reading of a fit uses.
func (p *Prepared) Workers() int {
	if p.workers > 0 {
		return p.workers
	}
	return runtime.GOMAXPROCS(0)
}

// Objects is the objects rule on the scores, made on first use: what it works out for
// the data set (the blurred scores, the fits it read) serves every run on it.
func (p *Prepared) Objects() *selection.Objects {
	p.objOnce.Do(func() {
		var pics selection.Pictures
		var w, h, c int
		if p.PCA != nil && p.Data != nil {
			pics, w, h, c = p.PCA, p.Data.Width, p.Data.Height, p.Data.Channels
		}
		p.objs = selection.New(p.Scores, pics, w, h, c, p.workers)
	})
	return p.objs
}

// Thumbnails returns the data set's thumbnails, rendered on first use and kept: every
// presentation of a result on this data shows the same ones.
func (p *Prepared) Thumbnails() []image.Image {
	p.thumbOnce.Do(func() {
		if p.thumbs == nil {
			p.thumbs = Thumbnails(p.Data)
		}
	})
	return p.thumbs
}

// ThumbnailPCA returns the PCA model followed by the shrink to thumbnail size
// (imgproc.ShrinkToThumbnail) and the size of its pictures: reconstructions straight at
// thumbnail size, for about a seventh of the work on 320×240 pictures. It is made on
// first use and kept; nil in identity mode.
func (p *Prepared) ThumbnailPCA() (*pca.Model, image.Point) {
	p.shrunkOnce.Do(func() {
		if p.PCA.Identity {
			return
		}
		ds := p.Data
		p.shrunk = p.PCA.Mapped(func(v []float64, cols int) []float64 {
			out, w, h := imgproc.ShrinkToThumbnail(v, ds.Width, ds.Height, ds.Channels*cols, ThumbnailSize)
			p.shrunkSize = image.Pt(w, h)
			return out
		})
	})
	return p.shrunk, p.shrunkSize
}

// KeepThumbnails hands over thumbnails of p.Data already rendered at ThumbnailSize (for
// a window's preview), for Thumbnails to return. Call it before Thumbnails.
func (p *Prepared) KeepThumbnails(thumbs []image.Image) {
	if len(thumbs) == len(p.Data.Names) {
		p.thumbOnce.Do(func() { p.thumbs = thumbs })
	}
}

// Prepare loads the images of req.Source and fits the PCA, reporting progress.
func Prepare(ctx context.Context, req Request, report func(jobs.Progress)) (*Prepared, error) {
	return PrepareInStages(ctx, req, report, nil)
}

// PrepareInStages is Prepare with a look-in: preview, when set, is called with the names
// and thumbnails of the images as soon as they are decoded, before the data matrix is
// filled and the PCA fitted, so that a window shows the pictures while the rest runs. The
// prepared data keeps those thumbnails (Thumbnails).
func PrepareInStages(ctx context.Context, req Request, report func(jobs.Progress), preview func(names []string, thumbs []image.Image)) (*Prepared, error) {
	tr := jobs.NewTracker(report)
	p := &Prepared{Source: req.Source, workers: req.Load.Workers}
	if req.PCA < 0 {
		return nil, fmt.Errorf("pca must be ≥ 0, got %d", req.PCA)
	}

	start := time.Now()
	lopt := req.Load
	if lopt.Memory == 0 {
		m, err := budget.FromEnv()
		if err != nil {
			return nil, err
		}
		lopt.Memory = m
	}
	// The time left of a load includes its PCA: estimated from the pictures decoded so
	// far (their size as kept, their colour, the share of the files that are pictures)
	// until the first pass has decoded them all, then for the true size. The guess is
	// made aside: the first estimate on a path times a small fit, and the decoders must
	// not wait for it. A guess made for the largest pictures the load can keep would be
	// far too long for a folder of small ones.
	var guessPCA sync.Once
	lopt.Progress = func(lp imgproc.LoadProgress) {
		if lp.Pictures >= jobs.MinUnitsForTimeLeft {
			guessPCA.Do(func() {
				n := lp.Total * lp.Pictures / lp.Done
				p := int(lp.Pixels / int64(lp.Pictures))
				if lopt.Width > 0 {
					p = lopt.Width * lopt.Height
				}
				if lopt.Color == imgproc.ColorRGB || (lopt.Color == imgproc.ColorAuto && lp.Colour > 0) {
					p *= 3
				}
				go func() { tr.GuessAfter(pca.Duration(n, p, req.PCA, lopt.Workers)) }()
			})
		}
		tr.UpdateWork("Loading images", lp.Done, lp.Total, lp.Bytes, lp.TotalBytes)
	}
	// RunMemory only estimates: a refusal calls it for every size its advice tries.
	lopt.RunMemory = func(n int, size image.Point, channels int) (int64, string, string) {
		p := size.X * size.Y * channels
		workers := cmp.Or(max(lopt.Workers, 0), runtime.GOMAXPROCS(0))
		run, data := budget.Run(req.Algorithm, req.Options, n, p, req.PCA, workers), imgproc.DataBytes(n, p)
		what, hint := "for the PCA and the run", ""
		switch {
		case req.PCA == 0:
			what = "for the float64 copy the learners read without a PCA"
			hint = fmt.Sprintf("with a PCA (--pca %d, the Dataset panel's PCA components), which keeps %d numbers per image", DefaultPCA, DefaultPCA)
		case run > data:
			// The components are P × D: at large pictures they outweigh the pixels.
			hint = "with fewer PCA components (--pca, the Dataset panel's PCA components)"
		}
		return run, what, hint
	}
	// Decoded comes once the size is chosen and fits, before the data matrix is made.
	var thumbs []image.Image
	lopt.Decoded = func(shape *imgproc.Dataset, pictures []image.Image) {
		n, p := len(shape.Names), shape.Values()
		tr.SetAfter(pca.Duration(n, p, req.PCA, lopt.Workers))
		budget.Next(imgproc.DataBytes(n, p)) // the data matrix, allocated next
		if preview != nil {
			thumbs = PreviewThumbnails(shape, pictures)
			preview(shape.Names, thumbs)
		}
		tr.Phase(phaseMatrix, n)
	}
	lopt.Rows = tr.Counter(phaseMatrix)
	ds, err := req.Source.Load(ctx, lopt)
	if err != nil {
		return nil, err
	}
	if err := checkLearnable(ds); err != nil {
		return nil, err
	}
	mode, err := ParseExposure(req.Exposure)
	if err != nil {
		return nil, err
	}
	if mode != ExposureNone {
		tr.Phase(phaseExposure, 0)
	}
	p.Exposure = handleExposure(ds, mode, tr.Counter(phaseExposure))
	p.Data = ds
	p.KeepThumbnails(thumbs)
	p.Times.Load = time.Since(start).Seconds()
	p.Peak.Load = budget.PeakResident()

	start = time.Now()
	tr.SetAfter(0)
	tr.Phase(phasePCA, 0)
	popt := req.pcaOptions()
	popt.Progress = func(done, total int) { tr.Update(phasePCA, done, total) }
	popt.Context = ctx
	budget.Next(pca.Memory(len(ds.Names), ds.Values(), req.PCA))
	model, scores, err := pca.Fit32(ds.Pixels, len(ds.Names), ds.Values(), popt)
	if err != nil {
		return nil, err // the pca package's messages say "pca:" themselves
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.PCA, p.Scores = model, scores
	p.Times.PCA = time.Since(start).Seconds()
	p.Peak.PCA = budget.PeakResident()
	return p, nil
}

// Description is what the learner reads of each image (Prepared.Describe): Kind is one
// of FeatureKinds ("" is FeaturesPCA), Words the vocabulary size for FeaturesWords.
type Description struct {
	Kind  string
	Words int
}

// Fitted is what a run of a learner on prepared data made (Prepared.RunOn): its result
// in the readable form, the run's options and times, and what the reading of the result
// needs of the run (app/result's Analysis holds it with the data).
type Fitted struct {
	Algorithm *algorithms.Algorithm
	Options   learn.Options
	Result    *learn.Result
	Times     Timings    // the data's load and PCA times and this run's algorithm time
	Peak      PeakMemory // the peak memory by the end of the load, the PCA and this run
	// Description is what the learner read of each image (the PCA scores unless set).
	Description Description
	// Other is the learner's own form of the result when the result is in the readable
	// form and the two differ, else nil.
	Other *Reading
	// Stability is, per feature in column order, the share of fits on half-samples of
	// the images that hold it (Stability); nil when not checked.
	Stability []float64
	// Seen is the scores as the learner fitted them when it chose K by counting objects
	// (the pictures seen through a slight blur); nil when it fitted the scores themselves.
	Seen *mat.Dense
	// SeenShifts says that the count took each fit's own small shifts of its features'
	// pictures out of Seen (selection.Objects.ShiftNuisance).
	SeenShifts bool
}

// RunOn runs one algorithm on the representation desc of prepared data. Only the
// clustering learners read a representation other than the PCA scores; their clusters'
// pictures are the means of their images' PCA scores, so the views and exports show them
// like any other result, while the objective is the learner's, in the representation.
func (p *Prepared) RunOn(ctx context.Context, alg *algorithms.Algorithm, desc Description, opt learn.Options, report func(jobs.Progress)) (*Fitted, error) {
	if alg == nil {
		return nil, errors.New("no algorithm to run")
	}
	tr := jobs.NewTracker(report)
	p.Objects().Forget()
	X := p.Scores
	described := 0.0
	if desc.Kind != "" && desc.Kind != FeaturesPCA {
		if err := desc.Validate(alg); err != nil {
			return nil, err
		}
		tr.Update("Describing the images ("+desc.Kind+")", 0, 0)
		began := time.Now()
		var err error
		if X, err = p.Describe(ctx, desc.Kind, desc.Words, opt.Seed, opt.Workers); err != nil {
			return nil, err
		}
		described = time.Since(began).Seconds()
	}
	opt.Progress = func(ap learn.Progress) { tr.Algorithm(alg, ap) }
	// The feature learners with no λ² choose it from their λ² path (Traits.LambdaPath);
	// DP-means proposes its own, in its own divergence, for a target K.
	n, _ := p.Scores.Dims()
	opt = alg.WithDefaults(opt, n)
	if alg.ReadsGroups() && opt.Groups == nil {
		// The hard HDP's groups are the images' subfolders (a collection sorted into
		// events, ORL's people); a folder without subfolders is one group.
		if folder, k := Subfolders(p.Data.Names); k > 0 {
			opt.Groups = make([]int, len(folder))
			for i, f := range folder {
				opt.Groups[i] = int(f)
			}
		}
	}
	if alg.StepsK() {
		tr.FollowSteps(opt.Lambda2, "")
	}
	start := time.Now()
	tr.Update(alg.Title, 0, 0)
	// A learner holds a few copies of the N × D scores (residuals, restarts' states);
	// the reading of its fits a band of the component pictures blurred (BlurMetric)
	// and a few pictures a feature.
	n, d := X.Dims()
	budget.Stage(4*int64(n)*int64(d)*8+p.readingBytes(), runSlack)
	var res *learn.Result
	var seen *mat.Dense
	var shifts bool
	var err error
	if alg.PricedByStepwise(opt) {
		res, opt, seen, err = p.sampleTied(ctx, alg, X, desc, opt, tr)
	} else {
		res, opt, seen, shifts, err = p.fit(ctx, alg, X, desc, opt, tr)
	}
	if err != nil {
		return nil, err
	}
	if res.K == 0 {
		// Only the IBP can end with no features; every view of a result is one of features.
		n, _ := p.Scores.Dims()
		return nil, fmt.Errorf("the IBP sampler ended with no features: it explains all %d images as their mean plus noise (σ_X = %.3g); more chains or sweeps may find some", n, res.SigmaX)
	}
	times, peak := p.Times, p.Peak
	times.Algorithm = time.Since(start).Seconds()
	start = time.Now()
	if alg.LeastSquares() {
		tr.Phase(phaseReading, 0)
	}
	other := p.Readable(alg, res)
	times.Reading = time.Since(start).Seconds()
	start = time.Now()
	tr.Phase(phaseStability, 0)
	if seen == X {
		seen = nil
	}
	// The halves are checked in what the learner fitted, as the count of objects read
	// the fit shown.
	checkOn := X
	if seen != nil {
		checkOn = seen
		if shifts {
			checkOn = features.ProjectOut(seen, p.Objects().ShiftNuisance(res.Z, nil))
		}
	}
	stable := selection.Stability(checkOn, alg, res, opt.Seed)
	if stable != nil {
		times.Stability = time.Since(start).Seconds()
	}
	times.Describe = described
	peak.Algorithm = budget.PeakResident()
	// What the run made and dropped (the blurred components, the fits it read) is freed
	// now, not counted on top of what the result's pictures and exports make next, and
	// the next work is held near what is live: its garbage is pictures, a collection
	// of them a few milliseconds.
	budget.Stage(0, runSlack)
	return &Fitted{Algorithm: alg, Options: opt, Result: res, Times: times, Peak: peak, Other: other,
		Description: desc, Stability: stable, Seen: seen, SeenShifts: shifts}, nil
}

// fit runs the learner algo on X, the scores or another description of the images.
// With no λ² given, a learner that walks the λ² path counts the objects to choose K
// (learn.KFromObjects): it fits the pictures as seen through a slight blur, then reads
// the fits on the scores themselves (selection.Objects.Count). It returns opt as the run
// used it, its KFrom set to the rule that chose K, the data the fits are of (X or the
// smoothed scores), and whether each fit's small shifts are taken out of them
// (ShiftsMatter) — ShiftNuisance of its own Z, as the objects rule read it.
func (p *Prepared) fit(ctx context.Context, alg *algorithms.Algorithm, X *mat.Dense, desc Description, opt learn.Options, tr *jobs.Tracker) (res *learn.Result, _ learn.Options, fitOn *mat.Dense, shifts bool, _ error) {
	objects := p.countsObjectsFor(alg, desc, opt)
	if alg.ChoosesK(opt) {
		// Say which rule chose K, so that the JSON and a saved file tell (with --pca 0 or
		// non-PCA features there are no pictures to count objects on: the widest).
		opt.KFrom = learn.KFromWidest
		if objects {
			opt.KFrom = learn.KFromObjects
		}
	}
	fitOn = X
	if objects {
		var err error
		tr.SetOpen(true) // the λ² path follows, of a time its own clock tells later
		tr.Phase(phaseBlur, 0)
		began := time.Now()
		if fitOn, err = p.Objects().Smoothed(func(done, total int) { tr.Update(phaseBlur, done, total) }); err != nil {
			return nil, opt, nil, false, err
		}
		tr.SetReading(readingEstimate(time.Since(began), p.PCA.D))
		defer tr.SetReading(nil)
		// Whether a second path follows is known once this one is counted (ShiftsMatter).
		tr.SetMayFollow(true)
		defer tr.SetMayFollow(false)
	}
	pathBegan := time.Now()
	res, err := alg.Run(ctx, fitOn, opt)
	if err != nil {
		return nil, opt, nil, false, err
	}
	firstPath := time.Since(pathBegan)
	if X != p.Scores {
		res.A = clusterMeans(res.Z, p.Scores)
	}
	if objects {
		if err := p.Objects().RefitOnScores(res); err != nil {
			return nil, opt, nil, false, err
		}
		tr.SetOpen(true) // a second path may follow (shiftsMatter)
		tr.Phase(phaseObjects, 0)
		k := p.Objects().Count(res, fitOn, false, 0, tr.Counter(phaseObjects))
		matter := p.Objects().ShiftsMatter(res, fitOn, k)
		tr.SetOpen(false)
		tr.SetMayFollow(false)
		if matter {
			tr.Phase(phaseShifts, 0)
			if _, _, err := p.Objects().ShiftMaps(); err != nil {
				return nil, opt, nil, false, err
			}
			run := opt
			run.Nuisance = p.Objects().ShiftNuisance
			end := tr.SecondPath(firstPath)
			defer tr.Counted()
			shifted, err := alg.Run(ctx, fitOn, run)
			end()
			if err != nil {
				return nil, opt, nil, false, err
			}
			if err := p.Objects().RefitOnScores(shifted); err != nil {
				return nil, opt, nil, false, err
			}
			// The largest count of objects either path offers.
			tr.Phase(phaseObjectsAgain, 0)
			ks := p.Objects().Count(shifted, fitOn, true, k, tr.Counter(phaseObjectsAgain))
			tr.Counted()
			if ks > k {
				res, k, shifts = shifted, ks, true
			}
		}
		if k == 0 {
			k = res.K
		}
		if res, err = selection.AtK(res, k); err != nil {
			return nil, opt, nil, false, err
		}
	}
	return res, opt, fitOn, shifts, nil
}

// clusterMeans is the mean of the rows of X in each cluster of the one-hot Z.
func clusterMeans(Z, X *mat.Dense) *mat.Dense {
	n, k := Z.Dims()
	_, d := X.Dims()
	A := mat.NewDense(k, d, nil)
	count := make([]float64, k)
	for i := 0; i < n; i++ {
		for c, v := range Z.RawRowView(i) {
			if v != 0 {
				floats.Add(A.RawRowView(c), X.RawRowView(i))
				count[c]++
			}
		}
	}
	for c := range count {
		if count[c] > 0 {
			floats.Scale(1/count[c], A.RawRowView(c))
		}
	}
	return A
}
