package cli

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"featurelab/app/encoding"
	"featurelab/app/pipeline"
	"featurelab/app/report"
	"featurelab/app/saved"
	"featurelab/imgproc"
	"featurelab/internal/atomicfile"
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
	s, err := saved.Open(pos[0])
	if err != nil {
		return err
	}
	e := s.Encoder
	if e == nil {
		return fmt.Errorf("%s holds no encoder (it was saved before Feature Lab could encode, or its pictures are too large): open it in the window or run analyze --save again", pos[0])
	}
	budget, err := pipeline.MemoryBudget()
	if err != nil {
		return err
	}
	opt := imgproc.Options{Width: e.Width, Height: e.Height, Color: imgproc.ColorRGB, Memory: budget, One: true}
	if e.Channels == 1 {
		opt.Color = imgproc.ColorGray
	}
	progress := newStderrProgress(stderr)
	opt.Progress = func(lp imgproc.LoadProgress) {
		progress.report(pipeline.Progress{Stage: "Loading images", Done: lp.Done, Total: lp.Total})
	}
	began := time.Now()
	ds, err := imgproc.Load(ctx, pos[1], opt)
	progress.done()
	if err != nil {
		return err
	}
	loaded := time.Now()
	codes, err := e.Encode(ds)
	if err != nil {
		return err
	}
	encoded := time.Now()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	path := filepath.Join(*out, "codes.csv")
	if err := writeEncodedCSV(path, codes); err != nil {
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
	sum := encodeSummary{Analysis: pos[0], Folder: pos[1], K: e.K, ResidualLimit: e.Limit, Sorted: sorted}
	sum.Seconds.Load, sum.Seconds.Encode = loaded.Sub(began).Seconds(), encoded.Sub(loaded).Seconds()
	for _, c := range codes {
		if c.Unexplained {
			sum.Unexplained++
		}
		sum.Images = append(sum.Images, encodedJSON{Name: c.Name, Code: c.Code, Residual: c.Residual, Unexplained: c.Unexplained})
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
	fmt.Fprintf(stdout, "%d images of %s coded with the %d features of %s; %d not explained by them (residual above %.3g); wrote %s\n",
		len(codes), pos[1], e.K, pos[0], sum.Unexplained, e.Limit, path)
	if sorted > 0 {
		fmt.Fprintf(stdout, "sorted them into %s: %d links or copies\n", *sortInto, sorted)
	}
	return nil
}

// writeEncodedCSV writes image, code, residual and whether the features explain it.
func writeEncodedCSV(path string, codes []encoding.Code) error {
	return atomicfile.Write(path, true, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.Write([]string{"image", "code", "residual", "explained"}); err != nil {
			return err
		}
		for _, c := range codes {
			if err := cw.Write([]string{c.Name, c.Code, strconv.FormatFloat(c.Residual, 'g', 8, 64), strconv.FormatBool(!c.Unexplained)}); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
}
