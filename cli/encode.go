package cli

import (
	"context"
	"fmt"
	"io"

	"featurelab/app/budget"
	"featurelab/app/report"
	"featurelab/app/saved"
)

// encodeSummary is what encode --json prints.
type encodeSummary struct {
	Analysis      string            `json:"analysis"`
	Folder        string            `json:"folder"`
	K             int               `json:"k"`
	ResidualLimit float64           `json:"residual_limit"`
	Unexplained   int               `json:"unexplained"`
	Images        []encodedJSON     `json:"images"`
	Skipped       map[string]string `json:"skipped,omitempty"`
	Sorted        int               `json:"sorted,omitempty"` // files written by --sort-into
	Seconds       struct {
		Load   float64 `json:"load"`
		Encode float64 `json:"encode"`
	} `json:"seconds"`
}

type encodedJSON struct {
	Name        string  `json:"name"`
	Code        string  `json:"code"`
	Residual    float64 `json:"residual"`
	Unexplained bool    `json:"unexplained"`
	// ZProbability is, for an IBP analysis, the image's probability of owning each
	// feature given the posterior-mean features (encoding.Code.Probability).
	ZProbability []float64 `json:"z_probability,omitempty"`
}

// encodeCmd codes the images of a folder with a saved analysis's features held fixed.
func encodeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("encode", stderr)
	out, jsonOut := outputFlags(fs)
	sortInto := fs.String("sort-into", "", "also sort the images into this folder: one folder per feature with the images that own it, one per code (links, or copies where links cannot be made; nothing overwritten)")
	pos, err := exactArgs(fs, args, 2, "encode [--out DIR] [--json] [--sort-into DIR] FILE.featurelab DIR")
	if err != nil {
		return err
	}
	// Where the results go is checked before the work, not after it.
	if err := report.CheckEncodedOutputs(*out); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if *sortInto != "" {
		if _, _, err := report.SortTarget(*sortInto, pos[1]); err != nil {
			return err
		}
	}
	s, err := saved.Open(pos[0])
	if err != nil {
		return err
	}
	e := s.Encoder
	if e == nil {
		return fmt.Errorf("%q holds no encoder (it was saved before Feature Lab could encode, or its pictures are too large): open it in the window or run analyze --save again", pos[0])
	}
	budget, err := budget.FromEnv()
	if err != nil {
		return err
	}
	progress := newStderrProgress(stderr)
	ap, err := e.Apply(ctx, pos[1], budget, progress.report)
	progress.done()
	if err != nil {
		return err
	}
	ds, codes := ap.Data, ap.Codes
	path, err := report.WriteEncodedOutputs(*out, codes)
	if err != nil {
		return err
	}
	sorted := 0
	if *sortInto != "" {
		names, strs := make([]string, len(codes)), make([]string, len(codes))
		for i, c := range codes {
			names[i], strs[i] = c.Name, c.Code
		}
		if sorted, err = report.SortInto(*sortInto, pos[1], names, strs, e.Base); err != nil {
			return err
		}
	}
	sum := encodeSummary{Analysis: pos[0], Folder: pos[1], K: e.K, ResidualLimit: e.Limit, Sorted: sorted, Unexplained: ap.Unexplained}
	sum.Seconds.Load, sum.Seconds.Encode = ap.LoadSecs, ap.EncodeSecs
	for _, c := range codes {
		sum.Images = append(sum.Images, encodedJSON{Name: c.Name, Code: c.Code, Residual: c.Residual, Unexplained: c.Unexplained,
			ZProbability: c.Probability})
	}
	for _, sk := range ds.Skipped {
		if sum.Skipped == nil {
			sum.Skipped = map[string]string{}
		}
		sum.Skipped[sk.Path] = sk.Reason
	}
	if *jsonOut {
		return saved.WriteJSON(stdout, sum)
	}
	fmt.Fprintf(stdout, "%d images of %q coded with the %d features of %q; %d not explained by them (residual above %.3g); wrote %q\n",
		len(codes), pos[1], e.K, pos[0], sum.Unexplained, e.Limit, path)
	if sorted > 0 {
		fmt.Fprintf(stdout, "sorted them into %q: %d links or copies\n", *sortInto, sorted)
	}
	return nil
}
