package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"featurelab/app/encoding"
	"featurelab/internal/atomicfile"
)

// ExportEncodedCodes writes the codes of new images (encoding.Encoder.Encode) as CSV to
// path, as `featurelab encode` and File → Export codes (CSV) of an applied folder do
// (WriteEncodedCSV).
func ExportEncodedCodes(path string, codes []encoding.Code, overwrite bool) error {
	return atomicfile.Write(path, overwrite, func(w io.Writer) error { return WriteEncodedCSV(w, codes) })
}

// WriteEncodedOutputs writes the codes of new images as codes.csv into dir, as `featurelab
// encode --out` does, creating dir, and replacing only a codes table Feature Lab wrote
// (CheckEncodedOutputs). It returns the file's path.
func WriteEncodedOutputs(dir string, codes []encoding.Code) (string, error) {
	if err := CheckEncodedOutputs(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, CodesFile)
	return path, atomicfile.WriteOver(path, IsCodesCSV, func(w io.Writer) error { return WriteEncodedCSV(w, codes) })
}

// WriteEncodedCSV writes image, code, residual, whether the features explain the image
// and, for an IBP analysis (the codes carry probabilities), p1…pK: its probability of
// owning each feature.
func WriteEncodedCSV(w io.Writer, codes []encoding.Code) error {
	cw := csv.NewWriter(w)
	head := strings.Split(codesHeaders[1], ",")
	k := 0
	if len(codes) > 0 && codes[0].Probability != nil {
		k = len(codes[0].Probability)
		for j := 1; j <= k; j++ {
			head = append(head, fmt.Sprintf("p%d", j))
		}
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, c := range codes {
		row := []string{c.Name, c.Code, strconv.FormatFloat(c.Residual, 'g', 8, 64), strconv.FormatBool(!c.Unexplained)}
		for j := 0; j < k && j < len(c.Probability); j++ {
			row = append(row, strconv.FormatFloat(c.Probability[j], 'g', 6, 64))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
