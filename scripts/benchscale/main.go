// Command benchscale is `make bench-scale`: it generates folders of images in a temporary
// folder, runs `featurelab analyze` on each, and prints the time and peak memory of each
// stage (load, PCA, learner), how well K-features recovers the objects drawn on the
// pictures, and, where python3-sklearn is installed, scikit-learn's load and randomized
// PCA on the same files side by side.
//
//	go run ./scripts/benchscale -bin bin/featurelab [-only 2000,10000,camera,100000] [-repeat N] [-keep]
//
// With -table it is `make bench` instead: the real tabletop, the card deck, ORL, a
// 2 000-picture scene folder (internal/scenes) and 40 camera photos upscaled from the
// tabletop, each analysed by the whole process with the defaults and with the papers' path
// (--k-from widest --exposure none), and with -baseline by an older build side by side;
// one table of wall time, peak RSS and K, the median of -repeat runs. Folders of
// ../shared/data that are not here are skipped with a line saying so.
//
//	go run ./scripts/benchscale -table -bin bin/featurelab [-baseline /tmp/fl-old] [-repeat N] [-only tabletop,cards,orl,scenes,camera] [-data ../shared/data] [-folders DIR]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"featurelab/app/saved"
)

// workload is one folder of the benchmark.
type workload struct {
	key     string // for -only
	name    string
	n, w, h int
	jpg     bool
	noise   float64
	args    []string // extra analyze flags
	sklearn bool     // run scikit-learn side by side
}

var workloads = []workload{
	{key: "2000", name: "2 000 synthetic 64×64×3", n: 2000, w: 64, h: 64, noise: 0.05, sklearn: true},
	{key: "10000", name: "10 000 synthetic 64×64×3", n: 10000, w: 64, h: 64, noise: 0.05, sklearn: true},
	{key: "camera", name: "40 photos 4000×3000 JPEG", n: 40, w: 4000, h: 3000, jpg: true, noise: 0.02},
	{key: "100000", name: "100 000 synthetic 32×32×3", n: 100000, w: 32, h: 32, noise: 0.05, sklearn: true},
}

func main() {
	bin := flag.String("bin", "bin/featurelab", "the featurelab binary")
	only := flag.String("only", "", "comma-separated workloads to run: 2000,10000,camera,100000 (default all)")
	keep := flag.Bool("keep", false, "keep the generated folders")
	repeat := flag.Int("repeat", 1, "run featurelab and scikit-learn this many times in turn on each folder and give the median ratio")
	python := flag.String("python", "", "python3 with scikit-learn (default: /usr/bin/python3, else python3 on PATH)")
	table := flag.Bool("table", false, "make bench: defaults and the papers' path side by side on the real folders (-only tabletop,cards,orl,scenes,camera)")
	baseline := flag.String("baseline", "", "with -table: an older featurelab binary to run side by side")
	data := flag.String("data", "../shared/data", "with -table: the shared data folder")
	folders := flag.String("folders", "", "with -table: where to write the generated folders and keep them for the next run (default: a temporary folder, removed)")
	flag.Parse()
	if *table {
		if err := runTable(*bin, *baseline, *data, *folders, *only, max(1, *repeat)); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*bin, *only, *keep, *python, max(1, *repeat)); err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		os.Exit(1)
	}
}

func run(bin, only string, keep bool, python string, repeat int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("no featurelab binary at %s (make build)", bin)
	}
	base, err := os.MkdirTemp("", "featurelab-bench-scale-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(base)
	}
	py := sklearnPython(python)
	fmt.Printf("Folders in %s; featurelab %s; %d cores\n\n", base, bin, numCPU())
	for _, wl := range workloads {
		if only != "" && !strings.Contains(","+only+",", ","+wl.key+",") {
			continue
		}
		dir := filepath.Join(base, wl.key)
		t0 := time.Now()
		f, err := generate(wl.name, dir, wl.n, wl.w, wl.h, wl.jpg, wl.noise)
		if err != nil {
			return err
		}
		fmt.Printf("== %s (generated in %.1f s)\n", wl.name, time.Since(t0).Seconds())
		var ratios []float64
		for range repeat {
			ours, err := benchFeaturelab(bin, base, wl, f)
			if err != nil {
				return err
			}
			if wl.sklearn {
				if r := benchSklearn(py, dir, ours); r > 0 {
					ratios = append(ratios, r)
				}
			}
		}
		if len(ratios) > 1 {
			slices.Sort(ratios)
			fmt.Printf("-- %d runs in turn: featurelab's load + PCA is %.2f× (median; from %.2f× to %.2f×) as fast as scikit-learn's load + warm PCA\n",
				len(ratios), ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1])
		}
		fmt.Println()
		if !keep {
			os.RemoveAll(dir)
		}
	}
	return nil
}

// benchFeaturelab runs `featurelab analyze --algo kfeatures --k 5` on the folder, prints
// its stages and returns its load + PCA seconds.
func benchFeaturelab(bin, base string, wl workload, f *folder) (float64, error) {
	args := append([]string{"analyze", "--algo", "kfeatures", "--k", "5", "--json", "--out", filepath.Join(base, "out-"+wl.key)}, wl.args...)
	args = append(args, f.dir)
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0).Seconds()
	if err != nil {
		return 0, fmt.Errorf("featurelab %s: %v\n%s", strings.Join(args, " "), err, lastLines(stderr.String(), 5))
	}
	var s saved.Summary // what `featurelab analyze --json` prints
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		return 0, fmt.Errorf("featurelab's JSON: %v", err)
	}
	peak := maxRSS(cmd.ProcessState)
	fmt.Printf("featurelab  %d images at %d×%d×%d, PCA %s\n", s.NImages, s.Width, s.Height, s.Channels, s.PCAMethod)
	fmt.Printf("  %-22s %8s %12s\n", "stage", "seconds", "peak MB")
	fmt.Printf("  %-22s %8.2f %12.0f\n", "load", s.Seconds.Load, mb(s.PeakMemory.Load))
	fmt.Printf("  %-22s %8.2f %12.0f\n", "PCA", s.Seconds.PCA, mb(s.PeakMemory.PCA))
	fmt.Printf("  %-22s %8.2f %12.0f\n", "K-features K=5", s.Seconds.Algorithm, mb(s.PeakMemory.Algorithm))
	fmt.Printf("  %-22s %8.2f %12.0f\n", "whole command", wall, mb(peak))
	fmt.Printf("  load + PCA %.2f s; data matrix %0.f MB; budget N·P·4 + 512 MB = %.0f MB\n",
		s.Seconds.Load+s.Seconds.PCA, mb(int64(s.NImages*s.Width*s.Height*s.Channels*4)),
		mb(int64(s.NImages*s.Width*s.Height*s.Channels*4)+512<<20))
	if rec, err := recovered(f, s.Names, s.Codes); err != nil {
		fmt.Printf("  recovery: %v\n", err)
	} else {
		fmt.Printf("  K-features recovers all %d objects on %.1f %% of the images\n", objects, 100*rec)
	}
	return s.Seconds.Load + s.Seconds.PCA, nil
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func numCPU() int {
	b, _ := exec.Command("nproc").Output()
	var n int
	fmt.Sscan(string(b), &n)
	return n
}
