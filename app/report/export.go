package report

import (
	"bufio"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"featurelab/app/result"
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

// outputs are the files WriteOutputs writes, each with how a file of its name is known
// for one Feature Lab wrote: only those are replaced by a later run, as only those are
// skipped by the loader (imgproc.IsOwnPNG).
var outputs = map[string]atomicfile.Mine{FeaturesFile: imgproc.IsOwnPNG, CodesFile: IsCodesCSV, ResultFile: saved.IsResult}

// codesHeaders are the first lines of the codes tables Feature Lab writes: a run's
// (WriteCodesCSV) and new images' (WriteEncodedCSV, whose columns may go on).
var codesHeaders = []string{"image,code,residual", "image,code,residual,explained"}

// IsCodesCSV reports whether r reads a codes table Feature Lab wrote: its first line is
// one of the headers WriteCodesCSV and WriteEncodedCSV write.
func IsCodesCSV(r io.Reader) bool {
	line, _ := bufio.NewReader(io.LimitReader(r, 1<<12)).ReadString('\n')
	line = strings.TrimSuffix(line, "\n")
	return line == codesHeaders[0] || line == codesHeaders[1] || strings.HasPrefix(line, codesHeaders[1]+",")
}

// CheckOutputs says why WriteOutputs could not write into dir, before the analysis is
// run: dir is a file, or a file there of an output's name is not one Feature Lab wrote
// (a user's own features.png, say, in the folder of the images).
func CheckOutputs(dir string) error { return atomicfile.CheckFolder(dir, outputs) }

// CheckEncodedOutputs is CheckOutputs for `encode --out`, which writes codes.csv alone.
func CheckEncodedOutputs(dir string) error {
	return atomicfile.CheckFolder(dir, map[string]atomicfile.Mine{CodesFile: IsCodesCSV})
}

// WriteOutputs writes features.png, codes.csv and result.json into dir, creating it. The
// command line replaces earlier outputs in its --out folder, each file atomically, and
// only those Feature Lab wrote (CheckOutputs). The grid leaves out the minor features
// (FeatureGrid).
func WriteOutputs(a *result.Analysis, dir string) error { return WriteAllOutputs(a, dir, false) }

// WriteAllOutputs is WriteOutputs, drawing every feature in the grid, the minor ones too,
// when allFeatures is set.
//
// The folder holds one run: result.json goes first and comes back last, naming the
// other files of its run with their digests (Run), so that a run cut short leaves a
// folder CheckRun refuses rather than one run's codes beside another's result.
func WriteAllOutputs(a *result.Analysis, dir string, allFeatures bool) error {
	if err := CheckOutputs(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output folder %q: %w", dir, atomicfile.Cause(err))
	}
	result := filepath.Join(dir, ResultFile)
	if st, err := os.Lstat(result); err == nil && st.Mode().IsRegular() {
		if err := os.Remove(result); err != nil {
			return fmt.Errorf("%q: %w", result, atomicfile.Cause(err))
		}
	}
	run := Run{Files: map[string]string{}}
	grid := FeatureGridOf(a, allFeatures)
	if err := run.write(dir, FeaturesFile, func(w io.Writer) error { return imgproc.EncodePNG(w, grid) }); err != nil {
		return err
	}
	if err := run.write(dir, CodesFile, func(w io.Writer) error { return WriteCodesCSV(a, w) }); err != nil {
		return err
	}
	fr := runResult{FullResult: saved.FullResultOf(a), Run: run}
	return atomicfile.WriteOver(result, outputs[ResultFile], func(w io.Writer) error { return saved.WriteJSON(w, fr) })
}

// Run is what result.json says of the run that wrote it: the other files it wrote into
// its folder, each with its SHA-256 ("sha256:…").
type Run struct {
	Files map[string]string `json:"files"`
}

// runResult is result.json as `analyze --out` writes it: the full result and its run.
type runResult struct {
	saved.FullResult
	Run Run `json:"run"`
}

// write writes the file name of dir through atomicfile.WriteOver, replacing only a file
// Feature Lab wrote, and records its digest.
func (r Run) write(dir, name string, write func(io.Writer) error) error {
	h := sha256.New()
	err := atomicfile.WriteOver(filepath.Join(dir, name), outputs[name], func(w io.Writer) error { return write(io.MultiWriter(w, h)) })
	if err == nil {
		r.Files[name] = "sha256:" + hex.EncodeToString(h.Sum(nil))
	}
	return err
}

// CheckRun says whether the folder dir holds the files of one run, as WriteOutputs wrote
// them: a result.json whose run names the other files, each as it was written. A run
// cut short (a kill, a full disk) leaves no result.json or files it does not name.
func CheckRun(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, ResultFile))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%q holds no %s: the run that wrote it did not finish", dir, ResultFile)
	} else if err != nil {
		return fmt.Errorf("%q: %w", filepath.Join(dir, ResultFile), atomicfile.Cause(err))
	}
	var head struct {
		Run *Run `json:"run"`
	}
	if err := json.Unmarshal(b, &head); err != nil || head.Run == nil || len(head.Run.Files) == 0 {
		return fmt.Errorf("%q names no files of its run (it is not whole, or from an earlier Feature Lab): run the analysis again", filepath.Join(dir, ResultFile))
	}
	names := make([]string, 0, len(head.Run.Files))
	for name := range head.Run.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if filepath.Base(name) != name {
			return fmt.Errorf("%q names %q, not a file beside it", filepath.Join(dir, ResultFile), name)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		sum := sha256.Sum256(b)
		if err != nil || "sha256:"+hex.EncodeToString(sum[:]) != head.Run.Files[name] {
			return fmt.Errorf("%q is not the file its run's %s names: the folder mixes two runs (one was cut short); run the analysis again", filepath.Join(dir, name), ResultFile)
		}
	}
	return nil
}

// ExportFeatureGrid writes the feature image grid as a PNG, the minor features too when
// all is set (FeatureGridOf).
func ExportFeatureGrid(a *result.Analysis, path string, overwrite, all bool) error {
	img := FeatureGridOf(a, all)
	return atomicfile.Write(path, overwrite, func(w io.Writer) error { return imgproc.EncodePNG(w, img) })
}

// ExportCodes writes codes.csv: image name, binary code, squared residual.
func ExportCodes(a *result.Analysis, path string, overwrite bool) error {
	return atomicfile.Write(path, overwrite, func(w io.Writer) error { return WriteCodesCSV(a, w) })
}

// WriteCodesCSV writes the codes table as CSV.
func WriteCodesCSV(a *result.Analysis, w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(strings.Split(codesHeaders[0], ",")); err != nil {
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
func ExportResult(a *result.Analysis, path string, overwrite bool) error {
	fr := saved.FullResultOf(a)
	return atomicfile.Write(path, overwrite, func(w io.Writer) error { return saved.WriteJSON(w, fr) })
}
