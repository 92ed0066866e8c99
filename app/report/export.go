package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"featurelab/app/pipeline"
	"featurelab/app/saved"
	"featurelab/imgproc"
	"featurelab/internal/atomicfile"
)

// Output file names written by WriteOutputs.
const (
	FeaturesFile = "features.png"
	CodesFile    = "codes.csv"
	ResultFile   = "result.json"
)

// WriteOutputs writes features.png, codes.csv and result.json into dir, creating it. The
// command line replaces earlier outputs in its --out folder, each file atomically. The
// grid leaves out the minor features (FeatureGrid).
func WriteOutputs(a *pipeline.Analysis, dir string) error { return WriteAllOutputs(a, dir, false) }

// WriteAllOutputs is WriteOutputs, drawing every feature in the grid, the minor ones too,
// when allFeatures is set.
func WriteAllOutputs(a *pipeline.Analysis, dir string, allFeatures bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	if err := ExportFeatureGrid(a, filepath.Join(dir, FeaturesFile), true, allFeatures); err != nil {
		return err
	}
	if err := ExportCodes(a, filepath.Join(dir, CodesFile), true); err != nil {
		return err
	}
	return ExportResult(a, filepath.Join(dir, ResultFile), true)
}

// ExportFeatureGrid writes the feature image grid as a PNG, the minor features too when
// all is set (FeatureGridOf).
func ExportFeatureGrid(a *pipeline.Analysis, path string, overwrite, all bool) error {
	img := FeatureGridOf(a, all)
	return atomicfile.Write(path, overwrite, func(w io.Writer) error { return imgproc.EncodePNG(w, img) })
}

// ExportCodes writes codes.csv: image name, binary code, squared residual.
func ExportCodes(a *pipeline.Analysis, path string, overwrite bool) error {
	return atomicfile.Write(path, overwrite, func(w io.Writer) error { return WriteCodesCSV(a, w) })
}

// WriteCodesCSV writes the codes table as CSV.
func WriteCodesCSV(a *pipeline.Analysis, w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"image", "code", "residual"}); err != nil {
		return err
	}
	res := a.Residuals()
	for i, code := range a.Codes() {
		if err := cw.Write([]string{a.Data.Names[i], code, strconv.FormatFloat(res[i], 'g', 8, 64)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ExportResult writes result.json: the summary, Z, A, residuals and traces.
func ExportResult(a *pipeline.Analysis, path string, overwrite bool) error {
	fr := saved.FullResultOf(a)
	return atomicfile.Write(path, overwrite, func(w io.Writer) error { return saved.WriteJSON(w, fr) })
}
