package app

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"featurelab/imgproc"
)

// Output file names written by WriteOutputs.
const (
	FeaturesFile = "features.png"
	CodesFile    = "codes.csv"
	ResultFile   = "result.json"
)

// WriteOutputs writes features.png, codes.csv and result.json into dir, creating it. The
// command line replaces earlier outputs in its --out folder, each file atomically.
func (a *Analysis) WriteOutputs(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	if err := a.ExportFeatureGrid(filepath.Join(dir, FeaturesFile), true); err != nil {
		return err
	}
	if err := a.ExportCodes(filepath.Join(dir, CodesFile), true); err != nil {
		return err
	}
	return a.ExportResult(filepath.Join(dir, ResultFile), true)
}

// ExportFeatureGrid writes the feature image grid as a PNG.
func (a *Analysis) ExportFeatureGrid(path string, overwrite bool) error {
	img := a.FeatureGrid()
	return writeAtomic(path, overwrite, func(w io.Writer) error { return imgproc.EncodePNG(w, img) })
}

// ExportCodes writes codes.csv: image name, binary code, squared residual.
func (a *Analysis) ExportCodes(path string, overwrite bool) error {
	return writeAtomic(path, overwrite, a.WriteCodesCSV)
}

// WriteCodesCSV writes the codes table as CSV.
func (a *Analysis) WriteCodesCSV(w io.Writer) error {
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
func (a *Analysis) ExportResult(path string, overwrite bool) error {
	fr := a.FullResult()
	return writeAtomic(path, overwrite, func(w io.Writer) error { return WriteJSON(w, fr) })
}
