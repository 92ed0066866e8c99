package cli

import (
	"context"
	"fmt"
	"io"

	"featurelab/algorithms"
	"featurelab/algorithms/cosegment"
	"featurelab/app/pipeline"
	"featurelab/app/saved"
	"featurelab/app/segmenting"
	"featurelab/imgproc"
)

// cosegmentCmd is `featurelab cosegment [flags] DIR`: the images of DIR segmented
// together with the hard HDP, written as per-image label maps and an overview.
func cosegmentCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cosegment", stderr)
	given := paramFlags(fs, []family[cosegment.Options]{{"cosegment", algorithms.Cosegmenter}})
	size := sizeFlag(fs)
	out, jsonOut := outputFlags(fs)
	pos, err := exactArgs(fs, args, 1, "cosegment takes one folder: featurelab cosegment [flags] DIR")
	if err != nil {
		return err
	}
	w, h, err := pipeline.ParseSize(*size)
	if err != nil {
		return err
	}
	opt, err := parseFor(algorithms.Cosegmenter, given, "cosegment")
	if err != nil {
		return err
	}
	if err := segmenting.CheckOutputsFolder(*out); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	progress := newStderrProgress(stderr)
	c, err := segmenting.Cosegment(ctx, pipeline.Source{Dir: pos[0]}, imgproc.Options{Width: w, Height: h, Workers: opt.Workers}, opt, *out, progress.report)
	progress.done()
	if err != nil {
		return err
	}
	if err := c.WriteOutputs(*out); err != nil {
		return err
	}
	if *jsonOut {
		return saved.WriteJSON(stdout, c.Summary())
	}
	fmt.Fprintf(stdout, "%s; wrote %q\n", c.Text(), *out)
	return nil
}
