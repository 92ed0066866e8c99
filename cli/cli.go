package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"featurelab/algorithms"
	"featurelab/algorithms/describe"
	"featurelab/algorithms/learn"
	"featurelab/algorithms/segment"
	"featurelab/app/jobs"
	"featurelab/app/pipeline"
	"featurelab/app/report"
	"featurelab/app/result"
	"featurelab/app/saved"
	"featurelab/app/segmenting"
	"featurelab/assets"
	"featurelab/imgproc"
	"featurelab/internal/about"
	"featurelab/internal/atomicfile"
	"featurelab/views"
)

const usage = `Feature Lab finds the latent binary features shared by a folder of images.

Usage:
  featurelab                          open the window, the built-in sample loaded
  featurelab DIR                      open the window on the folder DIR
  featurelab FILE.featurelab          open the window on a saved analysis (File → Save analysis)
  featurelab analyze [flags] [DIR]    load → PCA → algorithm; DIR defaults to the built-in sample
                                      (--save FILE.featurelab keeps the analysis to reopen or encode with)
  featurelab encode [flags] FILE.featurelab DIR
                                      code the images of DIR with a saved analysis's features:
                                      codes.csv, and which images they do not explain
  featurelab segment [flags] IMAGE    segment one image (KPYP)
  featurelab segment-eval [flags] IMAGES_DIR TRUTH_DIR
                                      segment every photo and score it against the human
                                      segmentations TRUTH_DIR/<id>_<k>.png (BSDS500's layout)
  featurelab cosegment [flags] DIR    segment the images of DIR together (hard HDP): one
                                      global cluster per stuff, the same in every image
  featurelab samples DIR              write the built-in sample data sets to DIR
  featurelab --version                the version and build (FyneApp.toml), the commit, Go and Fyne

Run 'featurelab analyze -h' for the flags.
`

// Run is the whole command line; it returns the process exit code. Errors are one line on
// stderr, never a panic or a trace.
func Run(args []string, stdout, stderr io.Writer) (code int) {
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
		releaseConsole()
		views.Run(path)
		return 0
	}
	if len(args) == 0 {
		return window("")
	}
	if st, err := os.Stat(args[0]); err == nil && len(args) == 1 && (st.IsDir() || strings.HasSuffix(args[0], saved.Ext)) {
		// featurelab DIR or FILE.featurelab: the window, opened on the folder or the
		// saved analysis, as a file manager's "Open with" does.
		return window(args[0])
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// What a command prints is its result: a write that fails (a full disk, a closed
	// pipe, > /dev/full) fails the command, as a failed output file does.
	out := &checkedWriter{w: stdout}
	stdout = out
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
	case "encode":
		err = encodeCmd(ctx, args[1:], stdout, stderr)
	case "samples":
		err = samplesCmd(args[1:], stdout, stderr)
	case "--version", "-version", "version":
		fmt.Fprint(stdout, about.Current())
		return 0
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = fmt.Errorf("unknown command %q (want analyze, encode, segment, segment-eval, cosegment, samples or --version)", args[0])
	}
	if errors.Is(err, flag.ErrHelp) {
		err = nil
	}
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing to standard output: %w", atomicfile.Cause(out.err))
	}
	if err != nil {
		fmt.Fprintf(stderr, "featurelab: %s\n", oneLine(err.Error()))
		return 1
	}
	return 0
}

// checkedWriter is a writer that keeps the first error of its writes.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// flagGiven reports whether the flag called name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// maxLine bounds an error line: a field of a crafted file or a flag's value can be
// megabytes long, and a line of that size says nothing more than its start.
const maxLine = 2000

// oneLine is s as one line a terminal prints as it is: its runs of white space one
// space, its control characters (escape codes in a file name) escaped, and cut to
// maxLine bytes with how much was left out.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteRune(r)
		}
	}
	s = b.String()
	if len(s) > maxLine {
		cut := maxLine
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
	}
	return s
}

// outputFlags are --out and --json, which the commands that write results share.
func outputFlags(fs *flag.FlagSet) (out *string, jsonOut *bool) {
	return fs.String("out", "featurelab-out", "output folder"), fs.Bool("json", false, "print the summary JSON on stdout")
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
		err := fs.Parse(args)
		if h, ok := fs.Output().(*helpOutput); ok {
			h.release(err)
		}
		if err != nil {
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
	fs := newFlagSet("analyze", stderr)
	algo := fs.String("algo", algorithms.Names()[0], "algorithm: "+strings.Join(algorithms.Names(), "|"))
	var families []family[learn.Options]
	for _, a := range algorithms.Learners() {
		families = append(families, family[learn.Options]{a.Name, a.Params})
	}
	given := paramFlags(fs, families)
	pcaDims := fs.Int("pca", pipeline.DefaultPCA, "principal components to keep (0 = raw pixels)")
	gray := fs.Bool("gray", false, "convert images to grey")
	exposure := fs.String("exposure", pipeline.ExposureAuto, "each picture's exposure: "+strings.Join(pipeline.ExposureChoices, "|")+" (auto: measure each picture's gain and divide it out before the PCA where the pictures tell it; none: keep them as taken, the papers' model)")
	size := sizeFlag(fs)
	sample := fs.String("sample", pipeline.DefaultSample, "built-in sample used when no DIR is given: "+strings.Join(assets.Names(), "|"))
	out, jsonOut := outputFlags(fs)
	features := fs.String("features", pipeline.FeaturesPCA, "what the clustering learners read of each image: "+strings.Join(pipeline.FeatureKinds(), "|")+" (histogram: colour histogram; words: bag of visual words)")
	words := fs.Int("words", describe.DefaultWords, "vocabulary size for --features words")
	saveTo := fs.String("save", "", "also save the analysis to this .featurelab file (reopen it in the window, or encode new images with it)")
	allFeatures := fs.Bool("all-features", false, fmt.Sprintf("draw every feature in features.png: an IBP result, or one of more than %d features, leaves out those under %.0f%% explained or past the %d largest and says how many", report.MajorFeatures, 100*report.MinorShare, report.MajorFeatures))
	asFound := fs.Bool("as-found", false, "write the features as the learner found them, not in the readable form (a base owned by every image, the emptiest scene, and features that add objects to it)")
	prof := profileFlags(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return fmt.Errorf("analyze takes one folder, got %d arguments", len(pos))
	}
	learner, err := algorithms.Lookup(*algo)
	if err != nil {
		return err
	}
	opt, err := parseFor(learner.Params, given, learner.Title)
	if err != nil {
		return err
	}
	if err := conflicts(learner, given, opt.Divergence, *features); err != nil {
		return err
	}
	req := pipeline.Request{
		Source:    pipeline.Source{Sample: *sample},
		PCA:       *pcaDims,
		Algorithm: learner,
		Options:   opt,
		Load:      imgproc.Options{Workers: opt.Workers},
		Describe:  pipeline.Description{Kind: *features, Words: *words},
		Exposure:  *exposure,
	}
	if len(pos) == 1 {
		req.Source = pipeline.Source{Dir: pos[0]}
	}
	if *gray {
		req.Load.Color = imgproc.ColorGray
	}
	w, h, err := pipeline.ParseSize(*size)
	if err != nil {
		return err
	}
	req.Load.Width, req.Load.Height = w, h
	if err := pipeline.ValidateRequest(req); err != nil {
		return err
	}
	// Where the results go is checked before the work, not after it.
	if err := report.CheckOutputs(*out); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if *saveTo != "" {
		if err := saved.CheckSave(*saveTo); err != nil {
			return fmt.Errorf("--save: %w", err)
		}
	}

	if err := prof.begin(); err != nil {
		return err
	}
	defer prof.end() // on every way out; the one below reports its error
	progress := newStderrProgress(stderr)
	observe := prof.observe(progress.report)
	a, err := result.Analyze(ctx, req, observe)
	if err != nil {
		progress.done()
		return err
	}
	if *asFound {
		a = a.SwitchReading()
	}
	// The pictures of the features and of the grid take a moment: said, not silent, even
	// within the throttle of the last report.
	prof.observe(progress.say)(jobs.Progress{Stage: fmt.Sprintf("Writing features.png, codes.csv and result.json to %s", *out),
		Elapsed: time.Since(progress.start)})
	err = report.WriteAllOutputs(a, *out, *allFeatures)
	progress.done()
	if err != nil {
		return err
	}
	if err := prof.end(); err != nil {
		return err
	}
	if *saveTo != "" {
		load := pipeline.LoadChoices{Colour: pipeline.ColourAuto, Size: *size, PCA: strconv.Itoa(*pcaDims), Exposure: *exposure}
		if *gray {
			load.Colour = pipeline.ColourGrey
		}
		if err := saved.Save(a, *saveTo, load); err != nil {
			return err
		}
	}
	if *jsonOut {
		return saved.WriteJSON(stdout, saved.SummaryOf(a))
	}
	fmt.Fprintf(stdout, "%s: %d images, K = %d, %s; wrote %q\n",
		a.Algorithm.Title, len(a.Data.Names), a.Result.K, saved.ObjectiveText(a), *out)
	return nil
}

// conflicts refuses flags that cannot all be followed, before anything is loaded: a
// target K beside a λ² for the learners that propose λ² for a target K (one of the two
// would be ignored), and a divergence of histograms (KL, I-divergence) on the PCA
// scores, which are not the non-negative rows it needs.
func conflicts(learner *algorithms.Algorithm, given map[string]string, divergence, features string) error {
	if learner.ProposesLambda2() && given["k"] != "" && given["lambda2"] != "" {
		return fmt.Errorf("%s: give --k (the number of clusters λ² is proposed for) or --lambda2 (λ² itself), not both", learner.Name)
	}
	return pipeline.CheckDivergence(divergence, features)
}

func segmentCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("segment", stderr)
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
	if err := segmenting.CheckOutputs(*out); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	img, err := segmenting.LoadImage(pos[0])
	if err != nil {
		return err
	}
	progress := newStderrProgress(stderr)
	res, err := segmenting.Segment(ctx, img, opt, progress.report)
	progress.done()
	if err != nil {
		return err
	}
	s := &segmenting.Segmentation{Path: pos[0], Image: img, Result: res}
	if err := s.WriteOutputs(*out); err != nil {
		return err
	}
	if *jsonOut {
		return saved.WriteJSON(stdout, s.Summary(opt.Method))
	}
	fmt.Fprintf(stdout, "%q: %d segments in %d iterations, %.2f s; wrote %q\n", pos[0], res.Segments, res.Iterations, res.Seconds, *out)
	return nil
}

// segmentFlags defines the segmenters' flags on fs — --method and one per parameter of the
// registry's segmenters — which segment and segment-eval share, and returns the function
// that reads them into options once parsed.
func segmentFlags(fs *flag.FlagSet) func() (segment.Options, error) {
	var families []family[segment.Options]
	var names []string
	for _, m := range algorithms.Segmenters() {
		families = append(families, family[segment.Options]{m.Name, m.Params})
		names = append(names, m.Name)
	}
	method := fs.String("method", names[0], "segmenter: "+strings.Join(names, "|"))
	given := paramFlags(fs, families)
	return func() (segment.Options, error) {
		m, err := algorithms.LookupSegmenter(*method)
		if err != nil {
			return segment.Options{}, err
		}
		opt, err := parseFor(m.Params, given, m.Title)
		opt.Method = m.Name
		return opt, err
	}
}

// samplesCmd is `featurelab samples DIR`. Its flags are parsed as every command's are, so
// that -h prints its help and a mistyped flag is refused, never taken for the folder.
func samplesCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("samples", stderr)
	pos, err := exactArgs(fs, args, 1, "samples takes one folder: featurelab samples DIR")
	if err != nil {
		return err
	}
	if err := assets.WriteAll(pos[0]); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s to %q\n", strings.Join(assets.Names(), ", "), pos[0])
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

func (p *stderrProgress) report(pr jobs.Progress) {
	if time.Since(p.last) < 500*time.Millisecond {
		return
	}
	p.say(pr)
}

// say prints pr unless the run is under a second old, whatever the throttle: a stage the
// run must not pass in silence.
func (p *stderrProgress) say(pr jobs.Progress) {
	now := time.Now()
	if now.Sub(p.start) < time.Second {
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
