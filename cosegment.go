package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"featurelab/algorithms/cosegment"
	"featurelab/app"
	"featurelab/imgproc"
)

// cosegmentCmd is `featurelab cosegment [flags] DIR`: the images of DIR segmented
// together with the hard HDP, written as per-image label maps and an overview.
func cosegmentCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("cosegment", flag.ContinueOnError)
	fs.SetOutput(stderr)
	local := fs.Float64("lambda-local", 0, "λ_bottom, the price of a segment in an image (0 = proposed by farthest-first)")
	global := fs.Float64("lambda-global", 0, "λ_top, the price of a global cluster (0 = λ_bottom times the cells of a typical segment: an image's cells over --k)")
	k := fs.Int("k", cosegment.DefaultTargetK, "target global clusters the penalties are proposed for")
	divergence := fs.String("divergence", "euclidean", "euclidean (on L*a*b*) | kl | idiv (on sRGB)")
	size := sizeFlag(fs)
	cell := fs.Int("cell", cosegment.DefaultCell, "side in pixels of the cells whose mean colours are the points")
	restarts := fs.Int("restarts", cosegment.DefaultRestarts, "restarts of the hard HDP")
	seed, workers := runFlags(fs)
	out, jsonOut := outputFlags(fs)
	pos, err := exactArgs(fs, args, 1, "cosegment takes one folder: featurelab cosegment [flags] DIR")
	if err != nil {
		return err
	}
	w, h, err := app.ParseSize(*size)
	if err != nil {
		return err
	}
	if *restarts < 1 {
		return fmt.Errorf("restarts must be ≥ 1, got %d", *restarts)
	}
	opt := cosegment.Options{LambdaLocal: *local, LambdaGlobal: *global, K: *k, Divergence: *divergence,
		Cell: *cell, Restarts: *restarts, Seed: *seed, Workers: *workers}
	progress := newStderrProgress(stderr)
	c, err := app.Cosegment(ctx, app.Source{Dir: pos[0]}, imgproc.Options{Width: w, Height: h, Workers: *workers}, opt, progress.report)
	progress.done()
	if err != nil {
		return err
	}
	if err := c.WriteOutputs(*out); err != nil {
		return err
	}
	if *jsonOut {
		return app.WriteJSON(stdout, c.Summary())
	}
	fmt.Fprintf(stdout, "%s; wrote %s\n", c.Text(), *out)
	return nil
}
