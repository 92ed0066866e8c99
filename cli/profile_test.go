package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"featurelab/app/jobs"
)

// The profiling flags write what they promise: a CPU profile and a heap profile that are
// not empty, and a progress log whose lines are in time order, each with the share done
// and the time left, ending with "done". The run is a small one, on the dice sample's
// 14×14 pictures: what is checked is the files, not the analysis.
func TestAnalyzeProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem, log := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof"), filepath.Join(dir, "progress.tsv")
	_, stderr, code := analyze(t, "--sample", "dice", "--algo", "kmeans", "--k", "5", "--restarts", "10", "--pca", "10",
		"--cpuprofile", cpu, "--memprofile", mem, "--progress-log", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{cpu, mem} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v (empty or missing)", f, err)
		}
	}
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if len(lines) < 3 || !strings.HasSuffix(lines[len(lines)-1], "\tdone\t") {
		t.Fatalf("progress log:\n%s", raw)
	}
	last := -1.0
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 5 || f[4] != "" && f[4] != "at least" {
			t.Fatalf("line %q: want 5 fields, the last empty or \"at least\"", l)
		}
		at, err := strconv.ParseFloat(f[0], 64)
		if err != nil || at < last {
			t.Fatalf("line %q: time %v after %v", l, at, last)
		}
		last = at
	}
}

// A profile that cannot be written is one line, before any work is done.
func TestAnalyzeProfileUnwritable(t *testing.T) {
	_, stderr, code := analyze(t, "--algo", "kmeans", "--k", "5", "--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "cpu.prof"))
	if code == 0 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "cpu profile") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// TestStderrProgressSaysEveryStageItMust: after the first second, reports come at most
// every half second, but a stage said with say (writing the outputs) is printed however
// soon after the last report; within the first second nothing is.
func TestStderrProgressSaysEveryStageItMust(t *testing.T) {
	var out strings.Builder
	p := newStderrProgress(&out)
	p.report(jobs.Progress{Stage: "early"})
	p.start = p.start.Add(-2 * time.Second)
	p.report(jobs.Progress{Stage: "first"})
	p.report(jobs.Progress{Stage: "throttled"})
	p.say(jobs.Progress{Stage: "Writing the outputs"})
	got := out.String()
	if strings.Contains(got, "early") || !strings.Contains(got, "first") || strings.Contains(got, "throttled") || !strings.Contains(got, "Writing the outputs") {
		t.Errorf("printed %q", got)
	}
}
