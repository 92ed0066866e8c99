package main

// -table is `make bench`: the folders a user meets — the real tabletop, the card deck, ORL,
// a 2 000-picture scene folder of internal/scenes and 40 camera photos upscaled from the
// tabletop — each analysed by the whole `featurelab analyze` process with the defaults and
// with the papers' path (--k-from widest --exposure none), and, with -baseline, by an older
// build side by side in the same run: wall time, peak RSS and K in one table.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/image/draw"

	"featurelab/internal/scenes"
)

// papersPath is the analyze flags of the papers' path: K at the widest λ² range and the
// pictures as taken.
var papersPath = []string{"--k-from", "widest", "--exposure", "none"}

// errNoData says a row's real data is not on this machine.
var errNoData = errors.New("no data")

// tableRow is one folder of the table: key for -only, its label, and how its folder is
// found or made under work from the shared data folder.
type tableRow struct {
	key, label string
	folder     func(data, work string) (string, error)
}

var tableRows = []tableRow{
	{"tabletop", "real tabletop", realFolder("tabletop")},
	{"cards", "card deck", realFolder("cards")},
	{"orl", "ORL faces", realFolder("orl_faces")},
	{"scenes", "scene folder, 2 000 pictures", sceneFolder},
	{"camera", "camera photos 4000×3000, tabletop upscaled", cameraFolder},
}

// cell is one measured run: the whole process's wall time and peak RSS, and the K and
// folder its JSON gives.
type cell struct {
	wall   float64 // seconds
	rss    int64   // bytes
	k      int
	n      int
	w, h   int
	failed string // why the run failed; empty when it ran
}

// config is one column: a binary and the flags it runs with, or why it is not run.
type config struct {
	title string
	bin   string
	args  []string
	na    string // the binary cannot run this configuration: printed instead
}

// runTable is -table: it finds or generates the folders in work (a temporary folder when
// empty), runs every configuration repeat times on each, interleaved so that the machine's
// noise falls on all alike, and prints the table of medians.
func runTable(bin, baseline, data, work, only string, repeat int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("no featurelab binary at %s (make build)", bin)
	}
	if work == "" {
		if work, err = os.MkdirTemp("", "featurelab-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	configs := []config{
		{title: "defaults", bin: bin},
		{title: "papers' path", bin: bin, args: papersPath},
	}
	if baseline != "" {
		if baseline, err = filepath.Abs(baseline); err != nil {
			return err
		}
		if _, err := os.Stat(baseline); err != nil {
			return fmt.Errorf("no baseline binary at %s", baseline)
		}
		old := config{title: "baseline papers' path", bin: baseline, args: papersPath}
		if !knowsFlags(baseline, "k-from", "exposure") {
			old.na = "n/a (no --k-from/--exposure)"
		}
		configs = append(configs, config{title: "baseline defaults", bin: baseline}, old)
	}
	fmt.Printf("featurelab %s (%s)\n", bin, buildOf(bin))
	if baseline != "" {
		fmt.Printf("baseline   %s (%s)\n", baseline, buildOf(baseline))
	}
	fmt.Printf("folders in %s; %d cores; median of %d run(s) each; whole process, wall time and peak RSS\n\n", work, numCPU(), repeat)

	type result struct {
		row   tableRow
		skip  string
		cells [][]cell // by config, by repeat
	}
	var results []result
	for _, row := range tableRows {
		if only != "" && !strings.Contains(","+only+",", ","+row.key+",") {
			continue
		}
		res := result{row: row, cells: make([][]cell, len(configs))}
		t0 := time.Now()
		dir, err := row.folder(data, work)
		switch {
		case errors.Is(err, errNoData):
			res.skip = err.Error()
			fmt.Fprintf(os.Stderr, "%s: skipped, %v\n", row.label, err)
			results = append(results, res)
			continue
		case err != nil:
			return fmt.Errorf("%s: %v", row.label, err)
		}
		fmt.Fprintf(os.Stderr, "%s: %s (ready in %.1f s)\n", row.label, dir, time.Since(t0).Seconds())
		for r := range repeat {
			for i, c := range configs {
				if c.na != "" {
					continue
				}
				out := filepath.Join(work, fmt.Sprintf("out-%s-%d", row.key, i))
				m := analyze(c.bin, dir, out, c.args)
				os.RemoveAll(out)
				res.cells[i] = append(res.cells[i], m)
				fmt.Fprintf(os.Stderr, "  %-22s run %d/%d: %s\n", c.title, r+1, repeat, m)
			}
		}
		results = append(results, res)
	}

	fmt.Println()
	header := []string{"folder"}
	for _, c := range configs {
		header = append(header, c.title+": wall, peak, K")
	}
	rows := [][]string{header}
	for _, res := range results {
		line := []string{res.row.label}
		if res.skip != "" {
			line[0] += " — skipped: " + res.skip
			for range configs {
				line = append(line, "")
			}
			rows = append(rows, line)
			continue
		}
		if n, w, h, ok := sizeOf(res.cells); ok {
			line[0] += fmt.Sprintf(" (%d at %d×%d)", n, w, h)
		}
		for i, c := range configs {
			if c.na != "" {
				line = append(line, c.na)
				continue
			}
			line = append(line, median(res.cells[i]))
		}
		rows = append(rows, line)
	}
	printTable(rows)
	return nil
}

func (m cell) String() string {
	if m.failed != "" {
		return "failed: " + m.failed
	}
	return fmt.Sprintf("%.2f s, %.0f MB, K = %d", m.wall, mb(m.rss), m.k)
}

// analyze runs `bin analyze dir --json --out out args…` as its own process and measures it.
func analyze(bin, dir, out string, args []string) cell {
	cmd := exec.Command(bin, append([]string{"analyze", dir, "--json", "--out", out}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	m := cell{wall: time.Since(t0).Seconds()}
	if cmd.ProcessState != nil {
		m.rss = maxRSS(cmd.ProcessState)
	}
	if err != nil {
		m.failed = fmt.Sprintf("%v: %s", err, lastLines(stderr.String(), 1))
		return m
	}
	var s struct {
		K       int `json:"k"`
		NImages int `json:"n_images"`
		Width   int `json:"width"`
		Height  int `json:"height"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		m.failed = "its JSON: " + err.Error()
		return m
	}
	m.k, m.n, m.w, m.h = s.K, s.NImages, s.Width, s.Height
	return m
}

// median is the cell of the median wall time and the median peak RSS of runs, with their
// K (every K seen when they differ, which a fixed seed should not let happen).
func median(runs []cell) string {
	var walls, rsss []float64
	var ks []string
	for _, m := range runs {
		if m.failed != "" {
			return m.String()
		}
		walls = append(walls, m.wall)
		rsss = append(rsss, float64(m.rss))
		if k := fmt.Sprint(m.k); !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	if len(runs) == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f s, %.0f MB, K = %s", mid(walls), mid(rsss)/(1<<20), strings.Join(ks, "/"))
}

// mid is the median of xs (the mean of the middle two for an even count).
func mid(xs []float64) float64 {
	xs = slices.Sorted(slices.Values(xs))
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// sizeOf is the pictures' count and working size the first successful run reported.
func sizeOf(cells [][]cell) (n, w, h int, ok bool) {
	for _, runs := range cells {
		for _, m := range runs {
			if m.failed == "" && m.n > 0 {
				return m.n, m.w, m.h, true
			}
		}
	}
	return 0, 0, 0, false
}

// printTable prints rows as a Markdown table with its columns aligned.
func printTable(rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, s := range r {
			width[i] = max(width[i], len([]rune(s)))
		}
	}
	line := func(r []string) {
		var b strings.Builder
		for i, s := range r {
			fmt.Fprintf(&b, "| %s%s ", s, strings.Repeat(" ", width[i]-len([]rune(s))))
		}
		fmt.Println(b.String() + "|")
	}
	line(rows[0])
	sep := make([]string, len(width))
	for i, w := range width {
		sep[i] = strings.Repeat("-", w)
	}
	line(sep)
	for _, r := range rows[1:] {
		line(r)
	}
}

// knowsFlags says whether bin's `analyze -h` lists every one of flags.
func knowsFlags(bin string, flags ...string) bool {
	out, _ := exec.Command(bin, "analyze", "-h").CombinedOutput()
	for _, f := range flags {
		if !bytes.Contains(out, []byte("-"+f+" ")) {
			return false
		}
	}
	return true
}

// buildOf is the commit line of bin's --version, or "build unknown" for a build without it.
func buildOf(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err == nil {
		for l := range strings.Lines(string(out)) {
			if c, ok := strings.CutPrefix(l, "commit:"); ok {
				return "commit " + strings.TrimSpace(c)
			}
		}
	}
	return "build unknown: no --version"
}

// realFolder is a folder of the shared data as it is.
func realFolder(name string) func(data, work string) (string, error) {
	return func(data, _ string) (string, error) {
		dir := filepath.Join(data, name)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return "", fmt.Errorf("%w: %s is not here", errNoData, dir)
		}
		return dir, nil
	}
}

// sceneFolder is internal/scenes' first set with 2 000 pictures, as
// `go run ./scripts/scenes -n 2000` writes it (a BSDS photo, two cards, a shadow, a colour
// patch; exposure, jitter, JPEG). It is written once in work and reused.
func sceneFolder(data, work string) (string, error) {
	spec := scenes.Sets(data)[0]
	spec.N = 2000
	for _, f := range append([]string{spec.Scene}, objectPictures(spec)...) {
		if _, err := os.Stat(f); err != nil {
			return "", fmt.Errorf("%w: %s is not here", errNoData, f)
		}
	}
	dir := filepath.Join(work, "scenes-2000")
	return dir, once(dir, func() error {
		_, err := scenes.Write(dir, spec)
		return err
	})
}

func objectPictures(spec scenes.Spec) []string {
	var files []string
	for _, o := range spec.Objects {
		if o.Picture != "" {
			files = append(files, o.Picture)
		}
	}
	return files
}

// cameraPhotos and cameraW×cameraH are the camera folder: 12-megapixel JPEGs.
const (
	cameraPhotos     = 40
	cameraW, cameraH = 4000, 3000
)

// cameraFolder is the first 40 tabletop photos (by name) upscaled bilinearly to 4000×3000,
// with a little pixel noise as a sensor has (so that the files are the size of a camera's,
// not of a smooth picture), as JPEG at quality 90 — camera photos of a scene the reading is
// known on. Written once in work and reused.
func cameraFolder(data, work string) (string, error) {
	src := filepath.Join(data, "tabletop")
	files, _ := filepath.Glob(filepath.Join(src, "*.jpg"))
	if len(files) < cameraPhotos {
		return "", fmt.Errorf("%w: fewer than %d photos in %s", errNoData, cameraPhotos, src)
	}
	slices.Sort(files)
	files = files[:cameraPhotos]
	dir := filepath.Join(work, "camera-40")
	return dir, once(dir, func() error {
		var wg sync.WaitGroup
		errs := make([]error, runtime.GOMAXPROCS(0))
		for w0 := range errs {
			wg.Go(func() {
				for i := w0; i < len(files) && errs[w0] == nil; i += len(errs) {
					errs[w0] = upscale(files[i], filepath.Join(dir, filepath.Base(files[i])), uint64(i))
				}
			})
		}
		wg.Wait()
		return errors.Join(errs...)
	})
}

// upscale writes the photo at from, upscaled to the camera size with noise drawn from seed,
// to to.
func upscale(from, to string, seed uint64) error {
	f, err := os.Open(from)
	if err != nil {
		return err
	}
	img, err := jpeg.Decode(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %v", from, err)
	}
	big := image.NewRGBA(image.Rect(0, 0, cameraW, cameraH))
	draw.BiLinear.Scale(big, big.Bounds(), img, img.Bounds(), draw.Src, nil)
	// Triangular noise of ±15 levels (σ ≈ 4.6) on each channel, from 8 random bits each.
	rng := rand.New(rand.NewPCG(seed, 7))
	for o := 0; o < len(big.Pix); o += 4 {
		r := rng.Uint64()
		for ch := range 3 {
			v := int(big.Pix[o+ch]) + int(r&15) - int(r>>4&15)
			big.Pix[o+ch] = uint8(min(255, max(0, v)))
			r >>= 8
		}
	}
	return writePicture(to, big, true)
}

// once makes dir with fill unless an earlier run finished it (its marker file, beside it,
// is there).
func once(dir string, fill func() error) error {
	marker := dir + ".complete"
	if _, err := os.Stat(marker); err == nil {
		return nil
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := fill(); err != nil {
		return err
	}
	return os.WriteFile(marker, nil, 0o644)
}
