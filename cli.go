package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/algorithms/segment"
	"featurelab/app"
	"featurelab/assets"
	"featurelab/imgproc"
	"featurelab/views"
)

const usage = `Feature Lab finds the latent binary features shared by a folder of images.

Usage:
  featurelab                          open the window, the built-in sample loaded
  featurelab DIR                      open the window on the folder DIR
  featurelab FILE.featurelab          open the window on a saved analysis (File → Save analysis)
  featurelab analyze [flags] [DIR]    load → PCA → algorithm; DIR defaults to the built-in sample
  featurelab segment [flags] IMAGE    segment one image (KPYP)
  featurelab segment-eval [flags] IMAGES_DIR TRUTH_DIR
                                      segment every photo and score it against the human
                                      segmentations TRUTH_DIR/<id>_<k>.png (BSDS500's layout)
  featurelab cosegment [flags] DIR    segment the images of DIR together (hard HDP): one
                                      global cluster per stuff, the same in every image
  featurelab samples DIR              write the built-in sample data sets to DIR

Run 'featurelab analyze -h' for the flags.
`

// run is the whole command line; it returns the process exit code. Errors are one line on
// stderr, never a panic or a trace.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			if msg := fmt.Sprint(r); strings.Contains(msg, "GLFW") {
				// A display that is set but cannot be reached (an X server gone, no
				// permission): the window's toolkit panics with GLFW's words.
				fmt.Fprintf(stderr, "featurelab: could not open the window on display %q: %s\n", os.Getenv("DISPLAY"), msg)
			} else {
				fmt.Fprintf(stderr, "featurelab: internal error: %v\n", r)
			}
			code = 2
		}
	}()
	window := func(path string) int {
		if why := noDisplay(os.Getenv); why != "" {
			fmt.Fprintln(stderr, "featurelab: "+why)
			return 2
		}
		views.Run(path)
		return 0
	}
	if len(args) == 0 {
		return window("")
	}
	if st, err := os.Stat(args[0]); err == nil && len(args) == 1 && (st.IsDir() || strings.HasSuffix(args[0], app.SavedExt)) {
		// featurelab DIR or FILE.featurelab: the window, opened on the folder or the
		// saved analysis, as a file manager's "Open with" does.
		return window(args[0])
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	switch args[0] {
	case "analyze":
		err = analyzeCmd(ctx, args[1:], stdout, stderr)
	case "segment":
		err = segmentCmd(ctx, args[1:], stdout, stderr)
	case "segment-eval":
		err = segmentEvalCmd(ctx, args[1:], stdout, stderr)
	case "cosegment":
		err = cosegmentCmd(ctx, args[1:], stdout, stderr)
	case "samples":
		err = samplesCmd(args[1:], stdout)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = fmt.Errorf("unknown command %q (want analyze, segment, segment-eval, cosegment or samples)", args[0])
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "featurelab: %s\n", oneLine(err.Error()))
		return 1
	}
	return 0
}

// flagGiven reports whether the flag called name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// outputFlags are --out and --json, which the commands that write results share.
func outputFlags(fs *flag.FlagSet) (out *string, jsonOut *bool) {
	return fs.String("out", "featurelab-out", "output folder"), fs.Bool("json", false, "print the summary JSON on stdout")
}

// runFlags are --seed and --workers, which every command that runs a learner takes.
func runFlags(fs *flag.FlagSet) (seed *uint64, workers *int) {
	return fs.Uint64("seed", 1, "random seed"), fs.Int("workers", 0, "worker goroutines (0 = all cores)")
}

// sizeFlag is --size, the common image size of the commands that load a folder.
func sizeFlag(fs *flag.FlagSet) *string {
	return fs.String("size", "", "common image size WxH (default: the most common size, reduced to 76800 pixels when larger)")
}

// exactArgs parses args, flags anywhere among them (parseInterspersed), and wants n
// positional arguments; usage is the line that says how to call the command.
func exactArgs(fs *flag.FlagSet, args []string, n int, usage string) ([]string, error) {
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) != n {
		return nil, errors.New(usage)
	}
	return pos, nil
}

// parseInterspersed lets flags come before or after the positional arguments, as in
// `featurelab analyze DIR --json`.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func analyzeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	algo := fs.String("algo", "stepwise", "algorithm: "+strings.Join(algorithms.Names(), "|"))
	k := fs.Int("k", 0, "number of features or clusters (kfeatures, kmeans; target K for choosing λ²)")
	lambda2 := fs.Float64("lambda2", 0, "penalty λ² per feature (0 = stepwise, bpmeans, collapsed: the K most stable on the λ² path; dpmeans: proposed by the farthest-first heuristic)")
	restarts := fs.Int("restarts", 100, "random restarts (Gibbs chains for ibp, default 4 there)")
	sweeps := fs.Int("sweeps", 1000, "Gibbs sweeps (ibp)")
	pcaDims := fs.Int("pca", app.DefaultPCA, "principal components to keep (0 = raw pixels)")
	seed, workers := runFlags(fs)
	gray := fs.Bool("gray", false, "convert images to grey")
	size := sizeFlag(fs)
	divergence := fs.String("divergence", "euclidean", "dpmeans Bregman divergence: euclidean|kl|idiv")
	sample := fs.String("sample", app.DefaultSample, "built-in sample used when no DIR is given: "+strings.Join(assets.Names(), "|"))
	out, jsonOut := outputFlags(fs)
	features := fs.String("features", app.FeaturesPCA, "what the clustering learners read of each image: "+strings.Join(app.FeatureKinds(), "|")+" (histogram: colour histogram; words: bag of visual words)")
	words := fs.Int("words", app.DefaultWords, "vocabulary size for --features words")
	asFound := fs.Bool("as-found", false, "write the features as the learner found them, not in the readable form (a base owned by every image, features owned by at most half)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return fmt.Errorf("analyze takes one folder, got %d arguments", len(pos))
	}
	req := app.Request{
		Source:    app.Source{Sample: *sample},
		PCA:       *pcaDims,
		Algorithm: *algo,
		Options: learn.Options{K: *k, Lambda2: *lambda2, Restarts: *restarts, Sweeps: *sweeps,
			Seed: *seed, Workers: *workers, Divergence: *divergence},
		Load:     imgproc.Options{Workers: *workers},
		Describe: app.Description{Kind: *features, Words: *words},
	}
	if len(pos) == 1 {
		req.Source = app.Source{Dir: pos[0]}
	}
	if *algo == "ibp" && !flagGiven(fs, "restarts") {
		// --restarts counts Gibbs chains for ibp; 100 chains of 1000 sweeps is no default.
		req.Options.Restarts = app.DefaultIBPChains
	}
	if *gray {
		req.Load.Color = imgproc.ColorGray
	}
	w, h, err := app.ParseSize(*size)
	if err != nil {
		return err
	}
	req.Load.Width, req.Load.Height = w, h
	if err := app.ValidateRequest(req); err != nil {
		return err
	}

	progress := newStderrProgress(stderr)
	a, err := app.Analyze(ctx, req, progress.report)
	progress.done()
	if err != nil {
		return err
	}
	if *asFound {
		a = a.SwitchReading()
	}
	if err := a.WriteOutputs(*out); err != nil {
		return err
	}
	if *jsonOut {
		return app.WriteJSON(stdout, a.Summary())
	}
	fmt.Fprintf(stdout, "%s: %d images, K = %d, %s; wrote %s\n",
		app.AlgorithmTitle(a.Algorithm), len(a.Data.Names), a.Result.K, a.ObjectiveText(), *out)
	return nil
}

func segmentCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("segment", flag.ContinueOnError)
	fs.SetOutput(stderr)
	options := segmentFlags(fs)
	out, jsonOut := outputFlags(fs)
	pos, err := exactArgs(fs, args, 1, "segment takes one image: featurelab segment [flags] IMAGE")
	if err != nil {
		return err
	}
	opt, err := options()
	if err != nil {
		return err
	}
	img, err := app.LoadImage(pos[0])
	if err != nil {
		return err
	}
	progress := newStderrProgress(stderr)
	res, err := app.Segment(ctx, img, opt, progress.report)
	progress.done()
	if err != nil {
		return err
	}
	s := &app.Segmentation{Path: pos[0], Image: img, Result: res}
	if err := s.WriteOutputs(*out); err != nil {
		return err
	}
	if *jsonOut {
		return app.WriteJSON(stdout, s.Summary(opt.Method))
	}
	fmt.Fprintf(stdout, "%s: %d segments in %d iterations, %.2f s; wrote %s\n", pos[0], res.Segments, res.Iterations, res.Seconds, *out)
	return nil
}

// segmentFlags defines the segmenter's flags on fs, which segment and segment-eval
// share, and returns the function that reads them into options once parsed.
func segmentFlags(fs *flag.FlagSet) func() (segment.Options, error) {
	method := fs.String("method", segment.MethodKPYP, "segmenter: kpyp|kmeans|dpmeans")
	truncation := fs.Int("truncation", segment.DefaultTruncation, "KPYP truncation C (most segments)")
	iters := fs.Int("iters", segment.DefaultMaxIter, "most iterations")
	k := fs.Int("k", segment.DefaultK, "clusters for --method kmeans (target K for dpmeans)")
	lambda2 := fs.Float64("lambda2", 0, "λ² for --method dpmeans (0 = farthest-first for --k)")
	texture := fs.Bool("texture", segment.DefaultTexture, "add local texture features to the colour (--texture=false for colour alone)")
	stride := fs.Int("stride", segment.DefaultStride, "KPYP: fit every s-th pixel each way, then label every pixel (1 = fit them all)")
	width := fs.Float64("width", segment.DefaultWidth, "KPYP kernel width ψ in image units (the start when --learn-widths)")
	learnLoc := fs.Bool("learn-locations", false, "KPYP: refine the cluster locations by L-BFGS on the bound")
	learnWidths := fs.Bool("learn-widths", false, "KPYP: learn the kernel widths by L-BFGS on the bound")
	cell := fs.Int("cell", segment.DefaultCell, "KPYP: side in pixels of the cells that share a location")
	discount := fs.Float64("discount", segment.DefaultDiscount, "KPYP: Pitman-Yor discount d in [0, 1) (0 = the paper's kernel)")
	distance := fs.String("distance", segment.DistanceGeodesic, "KPYP: the kernel's distance, geodesic (across edges costs more) or euclidean")
	edgeCost := fs.Float64("edge-cost", segment.DefaultEdgeCost, fmt.Sprintf("KPYP: geodesic cost of a colour step per %g ΔE (the features' unit) beyond the first", segment.ColourUnit))
	power := fs.Float64("power", segment.DefaultPower, "KPYP: power of the likelihood in (0, 1]: the observations each pixel counts as (1 = plain)")
	seed, workers := runFlags(fs)
	return func() (segment.Options, error) {
		if *truncation < 2 {
			return segment.Options{}, fmt.Errorf("truncation must be ≥ 2, got %d", *truncation)
		}
		if *iters < 1 {
			return segment.Options{}, fmt.Errorf("iters must be ≥ 1, got %d", *iters)
		}
		if *stride < 1 {
			return segment.Options{}, fmt.Errorf("stride must be ≥ 1, got %d", *stride)
		}
		if !(*power > 0 && *power <= 1) {
			return segment.Options{}, fmt.Errorf("power must be in (0, 1], got %v", *power)
		}
		if !(*edgeCost > 0) {
			return segment.Options{}, fmt.Errorf("edge-cost must be > 0, got %v", *edgeCost)
		}
		return segment.Options{Method: *method, Truncation: *truncation, MaxIter: *iters, K: *k,
			Lambda2: *lambda2, Texture: *texture, Seed: *seed, Workers: *workers,
			Width: *width, LearnLocations: *learnLoc, LearnWidths: *learnWidths, Cell: *cell, Discount: *discount, Stride: *stride,
			Distance: *distance, EdgeCost: *edgeCost, Power: *power}, nil
	}
}

func samplesCmd(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return errors.New("samples takes one folder: featurelab samples DIR")
	}
	if err := assets.WriteAll(args[0]); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s to %s\n", strings.Join(assets.Names(), ", "), args[0])
	return nil
}

// stderrProgress prints throttled progress lines on stderr once a job has run for a second.
type stderrProgress struct {
	w     io.Writer
	start time.Time
	last  time.Time
	shown bool
}

func newStderrProgress(w io.Writer) *stderrProgress {
	return &stderrProgress{w: w, start: time.Now()}
}

func (p *stderrProgress) report(pr app.Progress) {
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 500*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintln(p.w, pr.String())
}

func (p *stderrProgress) done() {
	if p.shown {
		fmt.Fprintf(p.w, "done in %.1f s\n", time.Since(p.start).Seconds())
	}
}
