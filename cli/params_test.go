package cli

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"io"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
	"featurelab/internal/accuracy"
)

// TestEveryParameterHasAFlag walks the registry: every parameter of every learner,
// segmenter and the co-segmentation is a flag of its command, named in the command's
// help, and a command given no flag runs with the registry's defaults.
func TestEveryParameterHasAFlag(t *testing.T) {
	help := func(cmd string) string {
		var stderr bytes.Buffer
		if code := Run([]string{cmd, "-h"}, io.Discard, &stderr); code != 0 {
			t.Fatalf("%s -h: exit %d", cmd, code)
		}
		return stderr.String()
	}
	analyzeHelp, segmentHelp, cosegmentHelp := help("analyze"), help("segment"), help("cosegment")
	for _, a := range algorithms.Learners() {
		fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
		given := paramFlags(fs, []family[learn.Options]{{a.Name, a.Params}})
		if err := fs.Parse(nil); err != nil {
			t.Fatal(err)
		}
		got, err := parseFor(a.Params, given, a.Title)
		if err != nil || !reflect.DeepEqual(got, a.Params.Defaults()) {
			t.Errorf("%s with no flags: %+v, %v; want the registry's defaults", a.Name, got, err)
		}
		for _, p := range a.Params {
			if !strings.Contains(analyzeHelp, "-"+p.Key+" ") {
				t.Errorf("analyze -h does not list -%s (%s)", p.Key, a.Name)
			}
		}
	}
	for _, m := range algorithms.Segmenters() {
		for _, p := range m.Params {
			if !strings.Contains(segmentHelp, "-"+p.Key) {
				t.Errorf("segment -h does not list -%s (%s)", p.Key, m.Name)
			}
		}
		fs := flag.NewFlagSet("segment", flag.ContinueOnError)
		read := segmentFlags(fs)
		if err := fs.Parse([]string{"--method", m.Name}); err != nil {
			t.Fatal(err)
		}
		if got, err := read(); err != nil || !reflect.DeepEqual(got, m.Options()) {
			t.Errorf("segment --method %s: %+v, %v; want %+v", m.Name, got, err, m.Options())
		}
	}
	for _, p := range algorithms.Cosegmenter {
		if !strings.Contains(cosegmentHelp, "-"+p.Key) {
			t.Errorf("cosegment -h does not list -%s", p.Key)
		}
	}
}

// TestEveryFlagAtTheEdges gives every parameter flag of every command the values a
// hostile script would — MaxInt64, MinInt64, NaN, ±Inf, 0, a word — and wants one line on
// stderr and a non-zero exit: refused, or accepted and then stopped by the folder that
// does not exist, never a panic or a trace.
func TestEveryFlagAtTheEdges(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-folder")
	values := []string{"9223372036854775807", "-9223372036854775808", "NaN", "+Inf", "-Inf", "0", "many"}
	try := func(args []string) {
		var stderr bytes.Buffer
		code := Run(append(args, "--out", t.TempDir()), io.Discard, &stderr)
		msg := strings.TrimRight(stderr.String(), "\n")
		if code == 0 || msg == "" || strings.Contains(msg, "\n") || strings.Contains(msg, "goroutine") {
			t.Errorf("%v: exit %d, stderr %q", args, code, msg)
		}
	}
	for _, a := range algorithms.Learners() {
		for _, p := range a.Params {
			for _, v := range values {
				try([]string{"analyze", "--algo", a.Name, "--" + p.Key + "=" + v, missing})
			}
		}
	}
	for _, m := range algorithms.Segmenters() {
		for _, p := range m.Params {
			for _, v := range values {
				try([]string{"segment", "--method", m.Name, "--" + p.Key + "=" + v, filepath.Join(missing, "x.png")})
			}
		}
	}
	for _, p := range algorithms.Cosegmenter {
		for _, v := range values {
			try([]string{"cosegment", "--" + p.Key + "=" + v, missing})
		}
	}
}

// TestEveryFlagOnARealFolder gives every flag of every command — the registry's and the
// commands' own (--size, --pca, --words, --sample, --method, --labels, …), read off each
// command's help — the hostile values on a real folder of small pictures, so that a value
// that is accepted runs: the command either ends well or says why in one line, never with
// a trace, a panic or an "internal error". Sizes get the values whose product overflows.
func TestEveryFlagOnARealFolder(t *testing.T) {
	accuracy.Check(t)
	if testing.Short() {
		t.Skip("runs every command a few hundred times")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 4 {
		img := image.NewRGBA(image.Rect(0, 0, 12, 10))
		for p := range img.Pix {
			img.Pix[p] = uint8(rng.IntN(256))
		}
		accuracy.WriteImage(t, filepath.Join(dir, fmt.Sprintf("p%d.png", i)), img)
	}
	values := []string{"9223372036854775807", "-9223372036854775808", "NaN", "+Inf", "-Inf", "0", "", "many"}
	sizes := []string{"9223372036854775807x2", "4294967296x4294967296", "3037000500x3037000500", "-1x-1", "0x0"}
	analysis := filepath.Join(t.TempDir(), "p.featurelab")
	if code := Run([]string{"analyze", "--algo", "kmeans", "--k", "2", "--out", t.TempDir(), "--save", analysis, dir}, io.Discard, io.Discard); code != 0 {
		t.Fatalf("analyze --save: exit %d", code)
	}
	commands := map[string][]string{
		"analyze":      {dir},
		"encode":       {analysis, dir},
		"segment":      {filepath.Join(dir, "p0.png")},
		"cosegment":    {dir},
		"segment-eval": {dir, dir},
	}
	ran := map[bool]int{} // by whether the command ended well
	for cmd, pos := range commands {
		var help bytes.Buffer
		Run([]string{cmd, "-h"}, io.Discard, &help)
		var flags []string
		for _, line := range strings.Split(help.String(), "\n") {
			if name, ok := strings.CutPrefix(line, "  -"); ok {
				flags = append(flags, strings.Fields(name)[0])
			}
		}
		if len(flags) < 2 {
			t.Fatalf("%s -h lists %d flags: %q", cmd, len(flags), help.String())
		}
		for _, name := range flags {
			if name == "out" {
				continue // every try writes to its own temp folder
			}
			vals := values
			if name == "size" {
				vals = append(slices.Clone(values), sizes...)
			}
			if name == "save" || name == "sort-into" || name == "cpuprofile" || name == "memprofile" || name == "progress-log" {
				// A file of each of those names, in a folder of its own (not the
				// package's, which the command's working directory is).
				vals = nil
				for _, v := range values {
					if v != "" {
						v = filepath.Join(t.TempDir(), v)
					}
					vals = append(vals, v)
				}
			}
			for _, v := range vals {
				args := append([]string{cmd, "--" + name + "=" + v, "--out", t.TempDir()}, pos...)
				var stderr bytes.Buffer
				code := Run(args, io.Discard, &stderr)
				var said []string
				for _, line := range strings.Split(stderr.String(), "\n") {
					if strings.HasPrefix(line, "featurelab:") {
						said = append(said, line)
					}
				}
				text := stderr.String()
				ran[code == 0]++
				if strings.Contains(text, "goroutine") || strings.Contains(text, "panic") || strings.Contains(text, "internal error") ||
					len(said) > 1 || (code != 0 && len(said) != 1) {
					t.Errorf("%v: exit %d, stderr %q", args, code, text)
				}
			}
		}
	}
	// Both outcomes must occur, or the folder (or the flags) did not do their part.
	if ran[true] < 10 || ran[false] < 100 {
		t.Errorf("%d runs ended well and %d were refused", ran[true], ran[false])
	}
	t.Logf("%d runs ended well and %d were refused", ran[true], ran[false])
}
