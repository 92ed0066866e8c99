package algorithms

import (
	"context"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/cluster"
	"featurelab/algorithms/cosegment"
	"featurelab/algorithms/features"
	"featurelab/algorithms/ibp"
	"featurelab/algorithms/learn"
	"featurelab/algorithms/segment"
)

// ways are what sets one learner's behaviour apart from another's; the pipeline, the
// window and the exports ask them of the learner through its methods (Clusters, StepsK, …).
type ways struct {
	// LambdaPath: given no λ², it chooses K and λ² itself from its λ² path (the K best
	// for the widest range of λ², or for stepwise the count of objects: learn.KFromObjects).
	LambdaPath bool
	// Clusters: each image gets one cluster, not a set of features.
	Clusters bool
	// TargetK: its K is the target from which λ² is proposed (farthest-first), not the
	// K it fits.
	TargetK bool
	// Groups: it reads the images' groups (their subfolders), and so is not scored
	// against them — told the answer's groups, a score measures nothing.
	Groups bool
	// LeastSquares: its A is the least-squares fit to Z, so Z can be rewritten with a
	// base (features.WithBase) without changing the fit.
	LeastSquares bool
	// StepsK: it tries K = 1, 2, … in turn, each with its restarts (stepwise), which its
	// progress and time left follow.
	StepsK bool
	// Sampler: it draws samples (the IBP), and reports a K trace, α, σ_X and σ_A.
	Sampler bool
}

// Algorithm describes one feature learner or clusterer once: the command line builds its
// flags and help from it, the window its form, and the checks and titles come from it.
// Adding an algorithm is its package plus one Algorithm in learnerRegistry.
type Algorithm struct {
	Name    string // the --algo value and the saved name: "stepwise"
	Title   string // what the window and messages call it: "Stepwise K-features"
	Summary string // one line: what it does
	Params  Params[learn.Options]
	traits  ways
	Fit     learn.LearnFunc
}

// Defaults of the parameters the learners share, written once.
const (
	DefaultRestarts = learn.DefaultRestarts // random restarts of the restart-based learners
	DefaultSweeps   = ibp.DefaultSweeps     // Gibbs sweeps of the IBP sampler
	// DefaultChains is the number of IBP Gibbs chains. A single chain can stay in a
	// redundant mode — on the built-in tetris sample 2 of 30 seeds end at K = 7 or 8 —
	// while the best of 4 reached K = 5 for all 30.
	DefaultChains = 4
	DefaultSeed   = 1
	// DefaultTargetK is the number of features or clusters the farthest-first heuristic
	// aims at when the user gives neither λ² nor K.
	DefaultTargetK = learn.DefaultTargetK
)

// Upper bounds on the counts, so that a number too large is refused in one line before
// anything is allocated for it rather than exhausting memory or time.
const (
	maxFixedK   = 64      // K-features' exact Z-step enumerates 2^K codes per image up to 16, and its search beyond
	maxTargetK  = 1 << 16 // a target K; the learner also refuses one above the images' count
	maxRestarts = 100_000 // each restart keeps its objective
	maxSweeps   = 1_000_000
	maxChains   = 1024
	maxWorkers  = 1024
	maxIters    = 1_000_000
)

// maxLambda2 bounds λ²: the learners refuse a λ² whose λ²K overflows (learn.CheckLambda2).
const maxLambda2 = math.MaxFloat64 / (1 << 20)

func fixedK(what string) Param[learn.Options] {
	return Param[learn.Options]{Key: "k", Label: "K", Hint: what, Help: "the number of " + what + " it fits",
		Type: Int, Default: fmt.Sprint(learn.DefaultK), Min: 1, Max: maxFixedK,
		Field: func(o *learn.Options) any { return &o.K }}
}

var targetK = Param[learn.Options]{Key: "k", Label: "Target K", Hint: "clusters λ² is proposed for",
	Help: "the number of clusters the farthest-first heuristic aims at when it proposes λ² (used when λ² is empty)",
	Type: Int, Default: fmt.Sprint(DefaultTargetK), Min: 1, Max: maxTargetK,
	Field: func(o *learn.Options) any { return &o.K }}

func lambda2(auto, help string) Param[learn.Options] {
	return Param[learn.Options]{Key: "lambda2", Label: "λ²", Hint: "penalty per feature", Help: help,
		Type: Float, Auto: auto, Min: 0, MinOpen: true, Max: maxLambda2,
		Field: func(o *learn.Options) any { return &o.Lambda2 }}
}

var (
	pathLambda2 = lambda2("chosen with K from the λ² path",
		"the price of each feature in the objective: a larger λ² gives fewer features. Left empty, K and λ² are chosen from the λ² path")
	proposedLambda2 = lambda2("proposed for the target K",
		"the price of each cluster in the objective: a larger λ² gives fewer clusters. Left empty, λ² is proposed from the data by the farthest-first heuristic for the target K")
	hdpLambda2 = lambda2("proposed for the target K",
		"the price of a local cluster (a subfolder's images in one global cluster); a global cluster costs λ² times a subfolder's images over K. Left empty, it is proposed by the farthest-first heuristic for the target K")
	kFrom = Param[learn.Options]{Key: "k-from", Label: "K from", Hint: "how K is chosen when λ² is empty",
		Help: "objects: the largest K of the λ² path whose features are each an object that comes and goes, once; widest: the K best for the widest range of λ² (the papers' choice)",
		Type: Choice, Default: learn.KFromObjects, Choices: []string{learn.KFromObjects, learn.KFromWidest}, Advanced: true,
		Field: func(o *learn.Options) any { return &o.KFrom }}
	restarts = Param[learn.Options]{Key: "restarts", Label: "Restarts", Hint: "random restarts",
		Help: "independent random restarts; the best objective wins", Type: Int,
		Default: fmt.Sprint(DefaultRestarts), Min: 1, Max: maxRestarts,
		Field: func(o *learn.Options) any { return &o.Restarts }}
	sweeps = Param[learn.Options]{Key: "sweeps", Label: "Sweeps", Hint: "Gibbs sweeps per chain",
		Help: "Gibbs sweeps of each chain; the second half gives the posterior summaries", Type: Int,
		Default: fmt.Sprint(DefaultSweeps), Min: 1, Max: maxSweeps,
		Field: func(o *learn.Options) any { return &o.Sweeps }}
	chains = Param[learn.Options]{Key: "chains", Label: "Chains", Hint: "independent Gibbs chains",
		Help: "independent Gibbs chains, run in parallel; the best is shown", Type: Int,
		Default: fmt.Sprint(DefaultChains), Min: 1, Max: maxChains, Alias: "restarts",
		Field: func(o *learn.Options) any { return &o.Chains }}
	alphaPrior = Param[learn.Options]{Key: "alpha-prior", Label: "Prior on α", Hint: "tied: K settles on photos",
		Help: "tied: α = exp(−λ²/2σ_X²), λ² the price of a feature that stepwise K-features chooses on the λ² path, whose fit starts the chains, and the chains see the pictures as stepwise does (through a slight blur, with the PCA), so that K settles where the objects are; gamma: α ~ Gamma(1, 1) and chains from the prior, the papers' model",
		Type: Choice, Default: learn.AlphaTied, Choices: []string{learn.AlphaTied, learn.AlphaGamma}, Advanced: true,
		Field: func(o *learn.Options) any { return &o.AlphaPrior }}
	divergence = Param[learn.Options]{Key: "divergence", Label: "Divergence", Hint: "Bregman divergence",
		Help: "how far an image is from a cluster's mean: the squared distance (euclidean), or for histograms the KL or I-divergence",
		Type: Choice, Default: cluster.Euclidean, Choices: []string{cluster.Euclidean, cluster.KL, cluster.IDiv},
		Field: func(o *learn.Options) any { return &o.Divergence }}
	seed = Param[learn.Options]{Key: "seed", Label: "Seed", Hint: "same seed, same result",
		Help: "the same seed gives the same result, whatever the number of workers", Type: Uint,
		Default: fmt.Sprint(DefaultSeed), Min: 0, Max: math.MaxUint64,
		Field: func(o *learn.Options) any { return &o.Seed }}
	workers = Param[learn.Options]{Key: "workers", Label: "Workers", Hint: "0 = all cores",
		Help: "goroutines the work runs on; 0 = one per core. The result does not depend on it", Type: Int,
		Default: "0", Min: 0, Max: maxWorkers, Advanced: true, Machine: true,
		Field: func(o *learn.Options) any { return &o.Workers }}
)

// gibbs is the IBP sampler with BP-means at hand for its Init "bpmeans".
func gibbs(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	if opt.StartFrom == nil {
		opt.StartFrom = features.BPMeans
	}
	return ibp.Gibbs(ctx, X, opt)
}

// learnerRegistry is every learner, in the order the window and the help list them.
var learnerRegistry = []*Algorithm{
	{Name: "stepwise", Title: "Stepwise K-features",
		Summary: "K-features for K = 1, 2, … until a feature no longer pays its λ² (MAD-Bayes §3)",
		Params:  Params[learn.Options]{pathLambda2, kFrom, restarts, seed, workers},
		traits:  ways{LambdaPath: true, LeastSquares: true, StepsK: true}, Fit: features.Stepwise},
	{Name: "kfeatures", Title: "K-features",
		Summary: "K binary features by alternating Z- and A-steps (MAD-Bayes §3, fixed K)",
		Params:  Params[learn.Options]{fixedK("features"), restarts, seed, workers},
		traits:  ways{LeastSquares: true}, Fit: features.KFeatures},
	{Name: "bpmeans", Title: "BP-means",
		Summary: "binary features with a price λ² per feature (MAD-Bayes Alg. 3)",
		Params:  Params[learn.Options]{pathLambda2, restarts, seed, workers},
		traits:  ways{LambdaPath: true, LeastSquares: true}, Fit: features.BPMeans},
	{Name: "collapsed", Title: "Collapsed BP-means",
		Summary: "BP-means with A integrated out (MAD-Bayes §3.2)",
		Params:  Params[learn.Options]{pathLambda2, restarts, seed, workers},
		traits:  ways{LambdaPath: true, LeastSquares: true}, Fit: features.CollapsedBPMeans},
	{Name: "ibp", Title: "IBP Gibbs sampler",
		Summary: "the Indian buffet process's linear-Gaussian model, sampled by Gibbs (Griffiths & Ghahramani)",
		Params:  Params[learn.Options]{sweeps, chains, alphaPrior, seed, workers},
		traits:  ways{Sampler: true}, Fit: gibbs},
	{Name: "kmeans", Title: "K-means",
		Summary: "K clusters by Lloyd's iterations from k-means++",
		Params:  Params[learn.Options]{fixedK("clusters"), restarts, seed, workers},
		traits:  ways{Clusters: true}, Fit: cluster.KMeans},
	{Name: "dpmeans", Title: "DP-means",
		Summary: "clusters with a price λ² per cluster (Kulis & Jordan), any Bregman divergence",
		Params:  Params[learn.Options]{targetK, proposedLambda2, divergence, restarts, seed, workers},
		traits:  ways{Clusters: true, TargetK: true}, Fit: cluster.DPMeans},
	{Name: "collapsed-dpmeans", Title: "Collapsed DP-means",
		Summary: "DP-means with the means integrated out (MAD-Bayes Alg. 2)",
		Params:  Params[learn.Options]{targetK, proposedLambda2, restarts, seed, workers},
		traits:  ways{Clusters: true, TargetK: true}, Fit: cluster.CollapsedDPMeans},
	{Name: "hardhdp", Title: "Hard HDP",
		Summary: "the hard HDP of images grouped by subfolder (Jiang, Kulis & Jordan 2012, §4)",
		Params:  Params[learn.Options]{targetK, hdpLambda2, divergence, restarts, seed, workers},
		traits:  ways{Clusters: true, TargetK: true, Groups: true}, Fit: cluster.HDP},
}

// Learners returns every learner's description, in the order the window and the help
// list them.
func Learners() []*Algorithm { return append([]*Algorithm(nil), learnerRegistry...) }

// OptionParams is every learner's parameters of its options, each key once, in the
// registry's order, those of the machine (Param.Machine) left out: what a saved analysis
// keeps of a run's options, so that a parameter added to a learner is saved with it.
func OptionParams() Params[learn.Options] {
	var out Params[learn.Options]
	seen := map[string]bool{}
	for _, a := range learnerRegistry {
		for _, p := range a.Params {
			if !p.Machine && !seen[p.Key] {
				seen[p.Key] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Names returns the learners' names, in the registry's order: the window's picker and the
// command line's --algo list them.
func Names() []string {
	names := make([]string, len(learnerRegistry))
	for i, a := range learnerRegistry {
		names[i] = a.Name
	}
	return names
}

// Lookup is the learner called name, or an error that lists the names there are.
func Lookup(name string) (*Algorithm, error) {
	for _, a := range learnerRegistry {
		if a.Name == name {
			return a, nil
		}
	}
	return nil, fmt.Errorf("algo must be one of %s, got %q", strings.Join(Names(), ", "), name)
}

// Title is the display name of the learner called name ("stepwise" → "Stepwise
// K-features"), or name itself when there is none.
func Title(name string) string {
	if a, err := Lookup(name); err == nil {
		return a.Title
	}
	return name
}

// The learner's ways, which the pipeline, the saved file and the window ask of the
// learner they carry rather than of its name; a nil learner (data prepared for no run
// yet) has none of them.

// Clusters reports whether the learner gives each image one cluster, not a set of
// features: its results read as clusters, and it alone reads descriptions of the images
// other than their PCA scores.
func (a *Algorithm) Clusters() bool { return a != nil && a.traits.Clusters }

// ChoosesLambda2 reports whether, given no λ², the learner chooses K and λ² itself from
// its λ² path.
func (a *Algorithm) ChoosesLambda2() bool { return a != nil && a.traits.LambdaPath }

// ProposesLambda2 reports whether its K is the target from which λ² is proposed
// (farthest-first), not the K it fits.
func (a *Algorithm) ProposesLambda2() bool { return a != nil && a.traits.TargetK }

// ReadsGroups reports whether it reads the images' groups (their subfolders), and so is
// not scored against them.
func (a *Algorithm) ReadsGroups() bool { return a != nil && a.traits.Groups }

// LeastSquares reports whether its A is the least-squares fit to Z, so that Z can be
// rewritten with a base (features.WithBase) without changing the fit: its results have a
// readable form.
func (a *Algorithm) LeastSquares() bool { return a != nil && a.traits.LeastSquares }

// StepsK reports whether it tries K = 1, 2, … in turn, each with its restarts, which its
// progress and time left follow.
func (a *Algorithm) StepsK() bool { return a != nil && a.traits.StepsK }

// Sampler reports whether it draws samples (the IBP), with a K trace, α, σ_X and σ_A.
func (a *Algorithm) Sampler() bool { return a != nil && a.traits.Sampler }

// ChoosesK reports whether a run with opt chooses K by walking K = 1, 2, … (no λ² given
// to a learner that steps K): learn.Options.KFrom then says by which rule.
func (a *Algorithm) ChoosesK(opt learn.Options) bool { return a.StepsK() && opt.Lambda2 == 0 }

// PricedByStepwise reports whether a run with opt samples under the tied prior on α,
// where stepwise K-features prices a feature (learn.AlphaTied).
func (a *Algorithm) PricedByStepwise(opt learn.Options) bool {
	return a.Sampler() && opt.AlphaPrior == learn.AlphaTied
}

// WithDefaults is opt with what the learner needs on n images and opt leaves open: the
// target K, DefaultTargetK or n if fewer, that a λ² is proposed for.
func (a *Algorithm) WithDefaults(opt learn.Options, n int) learn.Options {
	if a.traits.TargetK && opt.Lambda2 == 0 && opt.K == 0 {
		opt.K = min(DefaultTargetK, n)
	}
	return opt
}

// Pricer is the learner whose λ² path prices a feature for a sampler under the tied
// prior on α (PricedByStepwise): stepwise K-features; nil for a learner that is none.
func (a *Algorithm) Pricer() *Algorithm {
	if !a.traits.Sampler {
		return nil
	}
	return MustLookup("stepwise")
}

// MustLookup is Lookup for a name known to be the registry's; it panics on another.
func MustLookup(name string) *Algorithm {
	a, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return a
}

// Takes reports whether the learner called name takes the parameter key.
func Takes(name, key string) bool {
	a, err := Lookup(name)
	return err == nil && a.Uses(key)
}

// Uses reports whether the learner takes the parameter called key.
func (a *Algorithm) Uses(key string) bool {
	_, ok := a.Params.Lookup(key)
	return ok
}

// Check refuses options with a parameter of a out of its range, in one line naming it.
func (a *Algorithm) Check(opt learn.Options) error { return a.Params.Check(opt) }

// Run runs the learner on X. It is how the window and the command line call every
// learner; the result carries the learner's name, stamped here rather than by each one.
func (a *Algorithm) Run(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	res, err := a.Fit(ctx, X, opt)
	if err != nil {
		return nil, err
	}
	res.Algorithm = a.Name
	return res, nil
}

// Segmenter describes one segmenter of single images once, as Algorithm does a learner.
type Segmenter struct {
	Name, Title string
	Params      Params[segment.Options]
}

// segNumber is a segmenter's whole-number (T int) or real (T float64) parameter.
func segNumber[T int | float64](key, label, hint, help string, def, lo, hi T, field func(*segment.Options) *T) Param[segment.Options] {
	typ := Int
	if _, real := any(def).(float64); real {
		typ = Float
	}
	return Param[segment.Options]{Key: key, Label: label, Hint: hint, Help: help, Type: typ,
		Default: fmt.Sprint(def), Min: float64(lo), Max: float64(hi),
		Field: func(o *segment.Options) any { return field(o) }}
}

func segBool(key, label, help string, def bool, field func(*segment.Options) *bool) Param[segment.Options] {
	return Param[segment.Options]{Key: key, Label: label, Hint: help, Help: help, Type: Bool,
		Default: fmt.Sprint(def),
		Field:   func(o *segment.Options) any { return field(o) }}
}

var (
	segIters = segNumber("iters", "Iterations", "most iterations", "the most iterations of the fit",
		segment.DefaultMaxIter, 1, maxIters, func(o *segment.Options) *int { return &o.MaxIter })
	segTexture = segBool("texture", "Texture features", "add local texture features to the colour (the mean and spread of L* around each pixel)",
		segment.DefaultTexture, func(o *segment.Options) *bool { return &o.Texture })
	segSeed = Param[segment.Options]{Key: "seed", Label: "Seed", Hint: "same seed, same result",
		Help: "the same seed gives the same segments", Type: Uint, Default: fmt.Sprint(DefaultSeed),
		Min: 0, Max: math.MaxUint64, Field: func(o *segment.Options) any { return &o.Seed }}
	segWorkers = advanced(segNumber("workers", "Workers", "0 = all cores", "goroutines the pixels are split over; 0 = one per core",
		0, 0, maxWorkers, func(o *segment.Options) *int { return &o.Workers }))
	segK = segNumber("k", "K", "clusters", "the number of clusters (K-means), or the target from which DP-means' λ² is chosen",
		segment.DefaultK, 1, segment.MaxLabels, func(o *segment.Options) *int { return &o.K })
)

// advanced is p kept under the window's "More".
func advanced[O any](p Param[O]) Param[O] {
	p.Advanced = true
	return p
}

// open is p with its lower bound, upper bound or both excluded.
func open[O any](p Param[O], min, max bool) Param[O] {
	p.MinOpen, p.MaxOpen = min, max
	return p
}

// segmenterRegistry is every segmenter, in the order the window and the help list them.
var segmenterRegistry = []*Segmenter{
	{Name: segment.MethodKPYP, Title: "Kernel Pitman-Yor process (KPYP)", Params: Params[segment.Options]{
		segNumber("truncation", "Truncation C", "most segments kept", "the most segments the posterior keeps (the truncation C of its stick-breaking): a cap, not a target, the fit keeps fewer when fewer pay; a larger cap takes longer",
			segment.DefaultTruncation, 1, segment.MaxLabels, func(o *segment.Options) *int { return &o.Truncation }),
		segNumber("width", "Kernel width ψ", "reach of a stick", "how far a segment's stick reaches, as a fraction of the image's side (the start when widths are learnt)",
			segment.DefaultWidth, 0.01, 100, func(o *segment.Options) *float64 { return &o.Width }),
		segIters,
		segSeed,
		segTexture,
		advanced(open(segNumber("discount", "Discount d", "Pitman–Yor discount", "the Pitman–Yor discount d in [0, 1); 0 is the paper's kernel",
			segment.DefaultDiscount, 0, 1, func(o *segment.Options) *float64 { return &o.Discount }), false, true)),
		{Key: "distance", Label: "Distance", Hint: "the kernel's distance",
			Help: "geodesic: a step across a colour edge costs more, so a segment's kernel falls across the edges around it; euclidean: straight-line distance",
			Type: Choice, Default: segment.DistanceGeodesic, Choices: []string{segment.DistanceGeodesic, segment.DistanceEuclidean}, Advanced: true,
			Field: func(o *segment.Options) any { return &o.Distance }},
		advanced(open(segNumber("edge-cost", "Edge cost β", fmt.Sprintf("geodesic cost per %g ΔE", segment.ColourUnit),
			fmt.Sprintf("the geodesic distance's cost of a colour step per %g ΔE (the features' unit) beyond the first", segment.ColourUnit),
			segment.DefaultEdgeCost, 0, 1e6, func(o *segment.Options) *float64 { return &o.EdgeCost }), true, false)),
		advanced(open(segNumber("power", "Likelihood power ζ", "observations a pixel counts as", "the power of the likelihood in (0, 1]: the observations each pixel counts as (1 = plain)",
			segment.DefaultPower, 0, 1, func(o *segment.Options) *float64 { return &o.Power }), true, false)),
		advanced(segNumber("stride", "Stride", "fit every s-th pixel", "fit every s-th pixel each way, then label every pixel (1 = fit them all)",
			segment.DefaultStride, 1, segment.MaxStride, func(o *segment.Options) *int { return &o.Stride })),
		advanced(segNumber("cell", "Cell", "pixels sharing a location", "side in pixels of the cells whose pixels share a location",
			segment.DefaultCell, 1, segment.MaxCell, func(o *segment.Options) *int { return &o.Cell })),
		advanced(segBool("learn-locations", "Learn locations", "refine the cluster locations by L-BFGS on the bound",
			false, func(o *segment.Options) *bool { return &o.LearnLocations })),
		advanced(segBool("learn-widths", "Learn widths", "learn the kernel widths by L-BFGS on the bound",
			false, func(o *segment.Options) *bool { return &o.LearnWidths })),
		segWorkers,
	}},
	{Name: segment.MethodKMeans, Title: "K-means on the pixel features", Params: Params[segment.Options]{
		segK, segIters, segSeed, segTexture, segWorkers}},
	{Name: segment.MethodDPMeans, Title: "DP-means on the pixel features", Params: Params[segment.Options]{
		segK,
		{Key: "lambda2", Label: "λ²", Hint: "penalty per cluster", Auto: "chosen for the target K",
			Help: "the price of each cluster: a larger λ² gives fewer segments; empty or 0 = chosen by farthest-first for the target K",
			Type: Float, Min: 0, MinOpen: true, Max: maxLambda2,
			Field: func(o *segment.Options) any { return &o.Lambda2 }},
		segIters, segSeed, segTexture, segWorkers}},
}

// Segmenters returns every segmenter's description, in the order the window lists them.
func Segmenters() []*Segmenter { return append([]*Segmenter(nil), segmenterRegistry...) }

// LookupSegmenter is the segmenter called name, or an error that lists those there are.
func LookupSegmenter(name string) (*Segmenter, error) {
	names := make([]string, len(segmenterRegistry))
	for i, s := range segmenterRegistry {
		if s.Name == name {
			return s, nil
		}
		names[i] = s.Name
	}
	return nil, fmt.Errorf("method must be one of %s, got %q", strings.Join(names, ", "), name)
}

// Options is the segmenter's defaults with its Method set.
func (s *Segmenter) Options() segment.Options {
	o := s.Params.Defaults()
	o.Method = s.Name
	return o
}

// Cosegmenter describes co-segmentation's parameters once.
var Cosegmenter = Params[cosegment.Options]{
	{Key: "k", Label: "Target K", Hint: "global clusters aimed at",
		Help: "the number of global clusters the proposed penalties aim at", Type: Int,
		Default: fmt.Sprint(cosegment.DefaultTargetK), Min: 1, Max: maxTargetK,
		Field: func(o *cosegment.Options) any { return &o.K }},
	{Key: "lambda-local", Label: "Segment price", Hint: "price of a segment", Auto: "proposed by farthest-first",
		Help: "the price of a segment in one image (the hard HDP's λ_bottom): a larger value gives fewer segments per image. Empty: DP-means' farthest-first price for the target K",
		Type: Float, Min: 0, MinOpen: true, Max: maxLambda2,
		Field: func(o *cosegment.Options) any { return &o.LambdaLocal }},
	{Key: "lambda-global", Label: "Cluster price", Hint: "price of a global cluster", Auto: "the segment price times a typical segment's cells",
		Help: "the price of a global cluster shared by the images (the hard HDP's λ_top): a larger value gives fewer global clusters. Empty: the segment price times the cells of a typical segment",
		Type: Float, Min: 0, MinOpen: true, Max: maxLambda2,
		Field: func(o *cosegment.Options) any { return &o.LambdaGlobal }},
	{Key: "cell", Label: "Cell", Hint: "pixels on a cell's side",
		Help: "each image is cut into square cells of this many pixels, each cell one point of the clustering", Type: Int,
		Default: fmt.Sprint(cosegment.DefaultCell), Min: 1, Max: cosegment.MaxCell,
		Field: func(o *cosegment.Options) any { return &o.Cell }},
	{Key: "divergence", Label: "Divergence", Hint: "Bregman divergence",
		Help: "euclidean on L*a*b*, or kl or idiv on sRGB", Type: Choice, Default: cluster.Euclidean,
		Choices: []string{cluster.Euclidean, cluster.KL, cluster.IDiv}, Advanced: true,
		Field: func(o *cosegment.Options) any { return &o.Divergence }},
	{Key: "restarts", Label: "Restarts", Hint: "restarts of the hard HDP", Help: "independent restarts of the hard HDP; the best objective wins",
		Type: Int, Default: fmt.Sprint(cosegment.DefaultRestarts), Min: 1, Max: maxRestarts, Advanced: true,
		Field: func(o *cosegment.Options) any { return &o.Restarts }},
	{Key: "seed", Label: "Seed", Hint: "same seed, same result", Help: "the same seed gives the same clusters", Type: Uint,
		Default: fmt.Sprint(DefaultSeed), Min: 0, Max: math.MaxUint64,
		Field: func(o *cosegment.Options) any { return &o.Seed }},
	{Key: "workers", Label: "Workers", Hint: "0 = all cores", Help: "goroutines the work runs on; 0 = one per core", Type: Int,
		Default: "0", Min: 0, Max: maxWorkers, Advanced: true,
		Field: func(o *cosegment.Options) any { return &o.Workers }},
}
