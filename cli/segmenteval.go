package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"featurelab/app/saved"
	"featurelab/app/segmenting"
)

// segmentEvalCmd is `featurelab segment-eval`: it segments every photo of a folder (or
// reads the label maps another method made, --labels) and scores each against its
// human segmentations, as researchers evaluate segmenters on BSDS500.
func segmentEvalCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("segment-eval", stderr)
	options := segmentFlags(fs)
	labels := fs.String("labels", "", "score the label maps DIR/<id>.png (grey PNG, a label per pixel) instead of segmenting")
	jsonOut := fs.Bool("json", false, "print every score and their mean as JSON on stdout")
	pos, err := exactArgs(fs, args, 2, "segment-eval takes two folders: featurelab segment-eval [flags] IMAGES_DIR TRUTH_DIR")
	if err != nil {
		return err
	}
	opt, err := options()
	if err != nil {
		return err
	}
	progress := newStderrProgress(stderr)
	rep, err := segmenting.Evaluate(ctx, segmenting.EvalRequest{ImagesDir: pos[0], TruthDir: pos[1], Options: opt, LabelsDir: *labels}, progress.report)
	progress.done()
	if err != nil {
		return err
	}
	if *jsonOut {
		return saved.WriteJSON(stdout, rep)
	}
	return writeEvalTable(stdout, rep)
}

// writeEvalTable prints one line per photo and the mean, and what the columns mean.
func writeEvalTable(w io.Writer, rep *segmenting.EvalReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "image\tPRI\tVoI (bits)\tVoI (nats)\tsegments\thuman maps\tseconds\t")
	line := func(s segmenting.EvalScore, segFormat string) {
		fmt.Fprintf(tw, "%s\t%.4f\t%.3f\t%.3f\t"+segFormat+"\t%d\t%.2f\t\n", s.ID, s.PRI, s.VoIBits, s.VoINats, s.Segments, s.Truths, s.Seconds)
	}
	for _, s := range rep.Images {
		line(s, "%.0f")
	}
	fmt.Fprintln(tw, "\t\t\t\t\t\t\t")
	line(rep.Mean, "%.1f")
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(w, "skipped %s: %s\n", s.Path, s.Reason)
	}
	_, err := fmt.Fprintf(w, "%s: PRI is the mean Rand index against the human maps (higher is better); VoI their mean variation of information (lower is better); human maps counts them per photo, and the mean line sums them.\n", rep.Method)
	return err
}
