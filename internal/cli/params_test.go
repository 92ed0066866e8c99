package cli

import (
	"bytes"
	"flag"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
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
