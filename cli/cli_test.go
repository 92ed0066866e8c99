package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"featurelab/internal/accuracy"
)

type summary struct {
	Algorithm   string            `json:"algorithm"`
	NImages     int               `json:"n_images"`
	Width       int               `json:"width"`
	Height      int               `json:"height"`
	Channels    int               `json:"channels"`
	PCADims     int               `json:"pca_dims"`
	K           int               `json:"k"`
	Objective   *float64          `json:"objective"`
	BPObjective *float64          `json:"bp_objective"`
	Codes       []string          `json:"codes"`
	Reading     string            `json:"reading"`
	Skipped     map[string]string `json:"skipped"`
	Seconds     map[string]float64
}

// analyze runs `featurelab analyze args… --json` and decodes the summary.
func analyze(t *testing.T, args ...string) (summary, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args = append([]string{"analyze", "--json", "--out", t.TempDir()}, args...)
	code := Run(args, &stdout, &stderr)
	var s summary
	if code == 0 {
		if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
			t.Fatalf("summary is not JSON: %v\n%s", err, stdout.String())
		}
	}
	return s, stderr.String(), code
}

// TestAnalyzeBuiltInSample: analyze with no folder loads the built-in tabletop at its own
// size and says so in its JSON, with every field and timing; a whole default load of the
// sample, so in the pass without the race detector.
func TestAnalyzeBuiltInSample(t *testing.T) {
	accuracy.Check(t)
	s, stderr, code := analyze(t, "--algo", "kmeans", "--k", "5", "--restarts", "10")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s.Algorithm != "kmeans" || s.NImages < 60 || s.Width != 320 || s.Height != 240 || s.Channels != 3 || s.K != 5 {
		t.Fatalf("summary %+v", s)
	}
	if s.Objective == nil || s.BPObjective == nil || len(s.Codes) != s.NImages || s.Skipped == nil {
		t.Fatalf("summary misses fields: %+v", s)
	}
	for _, k := range []string{"load", "pca", "algorithm"} {
		if _, ok := s.Seconds[k]; !ok {
			t.Fatalf("seconds.%s missing: %v", k, s.Seconds)
		}
	}
}

// TestAnalyzeAsFound: stepwise writes the readable form by default and the learner's
// own with --as-found; the JSON says which, and the codes follow.
func TestAnalyzeAsFound(t *testing.T) {
	accuracy.Check(t)
	readable, stderr, code := analyze(t, "--restarts", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	found, stderr, code := analyze(t, "--restarts", "20", "--as-found")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if readable.Reading != "readable" || found.Reading != "as found" || readable.K != found.K ||
		strings.Join(readable.Codes, ",") == strings.Join(found.Codes, ",") {
		t.Errorf("readings %q and %q, K %d and %d, same codes %v", readable.Reading, found.Reading, readable.K, found.K,
			strings.Join(readable.Codes, ",") == strings.Join(found.Codes, ","))
	}
}

func TestAnalyzeRealData(t *testing.T) {
	accuracy.Check(t)
	tests := []struct {
		dir                     string
		n, width, height, chans int
		skipped                 int
	}{
		{"tabletop", 100, 320, 240, 3, 1}, // SOURCE.txt
		{"orl_faces", 400, 92, 112, 1, 2}, // README, SOURCE.txt
		{"cards", 56, 222, 323, 3, 3},     // README.md, LICENSE, SOURCE.txt
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := accuracy.SharedData(t, tt.dir)
			s, stderr, code := analyze(t, dir, "--algo", "kmeans", "--k", "3", "--restarts", "3")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if s.NImages != tt.n || s.Width != tt.width || s.Height != tt.height || s.Channels != tt.chans {
				t.Fatalf("got %d images %d×%d×%d, want %d of %d×%d×%d", s.NImages, s.Width, s.Height, s.Channels, tt.n, tt.width, tt.height, tt.chans)
			}
			if len(s.Skipped) != tt.skipped {
				t.Fatalf("skipped %v, want %d files", s.Skipped, tt.skipped)
			}
		})
	}
}

func TestAnalyzeBadFolder(t *testing.T) {
	s, stderr, code := analyze(t, filepath.Join("..", "testdata", "images", "bad"), "--algo", "kmeans", "--k", "2", "--restarts", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s.NImages != 5 || len(s.Skipped) != 4 {
		t.Fatalf("loaded %d images and skipped %v; want 5 and 4 reasons", s.NImages, s.Skipped)
	}
	for name, reason := range s.Skipped {
		if reason == "" {
			t.Errorf("%s skipped without a reason", name)
		}
	}
}

func TestAnalyzeFailuresAreOneLine(t *testing.T) {
	onlyBad := t.TempDir()
	for name, body := range map[string]string{"a.jpg": "not a picture", "b.png": "", "c.txt": "hello"} {
		if err := os.WriteFile(filepath.Join(onlyBad, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing folder", []string{"analyze", "/no/such/folder"}, "no such folder"},
		{"only bad files", []string{"analyze", onlyBad}, "usable image"},
		{"bad algorithm", []string{"analyze", "--algo", "magic"}, "algo must be one of"},
		{"bad size", []string{"analyze", "--size", "big"}, "size must look like"},
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"samples without folder", []string{"samples"}, "samples takes one folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append(tt.args, "--out", t.TempDir())
			if tt.args[0] != "analyze" {
				args = tt.args
			}
			code := Run(args, &stdout, &stderr)
			if code == 0 {
				t.Fatal("exit 0, want failure")
			}
			msg := stderr.String()
			if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tt.want) || strings.Contains(msg, "goroutine") {
				t.Fatalf("stderr %q, want one line containing %q", msg, tt.want)
			}
		})
	}
}

func TestSamplesWritesEverySet(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"samples", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, set := range []string{"tabletop", "dice", "tetris", "cards", "faces"} {
		truth, err := os.ReadFile(filepath.Join(dir, set, "truth.csv"))
		if err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		if strings.Count(string(truth), "\n") < 10 {
			t.Fatalf("%s/truth.csv has too few lines", set)
		}
	}
	if code := Run([]string{"samples", dir}, &stdout, &stderr); code == 0 {
		t.Fatal("writing the samples twice into the same folder must refuse to overwrite")
	}
}

// TestAnalyzeRefusesAFolderThatDoesNotFit: with less memory than the folder needs
// (FEATURELAB_MEMORY), analyze refuses in one line that says what to change, exit 1.
func TestAnalyzeRefusesAFolderThatDoesNotFit(t *testing.T) {
	dir := t.TempDir()
	if err := Run([]string{"samples", dir}, &bytes.Buffer{}, &bytes.Buffer{}); err != 0 {
		t.Fatal("samples failed")
	}
	t.Setenv("FEATURELAB_MEMORY", "10M") // the tabletop sample needs 88 MB of pixels (100 × 320×240×3 × 4 B) and 355 MB for its PCA and run
	var stdout, stderr bytes.Buffer
	code := Run([]string{"analyze", "--out", t.TempDir(), filepath.Join(dir, "tabletop")}, &stdout, &stderr)
	// Progress lines may come first when loading takes over a second; the failure is one
	// line, the last.
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	msg := lines[len(lines)-1]
	if code != 1 || strings.Count(stderr.String(), "featurelab:") != 1 || strings.Contains(stderr.String(), "goroutine") ||
		!strings.Contains(msg, "need 443 MB (88 MB of pixels, 355 MB for the PCA and the run), more than the 10 MB there is room for: load them at") ||
		!strings.Contains(msg, "--size") || !strings.Contains(msg, "--gray") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	t.Setenv("FEATURELAB_MEMORY", "lots")
	stderr.Reset()
	if code := Run([]string{"analyze", "--out", t.TempDir(), filepath.Join(dir, "tabletop")}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), `FEATURELAB_MEMORY="lots" is not a size`) {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestWindowWithoutADisplayIsOneLine: without an X11 or Wayland display, opening the
// window (no arguments, or a folder) says so in one line and exits 2, where GLFW's
// "internal error: NotInitialized" came after four lines of log.
func TestWindowWithoutADisplayIsOneLine(t *testing.T) {
	if noDisplay(func(string) string { return "" }) == "" {
		t.Skip("this system's window needs no DISPLAY")
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	for _, args := range [][]string{nil, {t.TempDir()}} {
		var out, errb strings.Builder
		code := Run(args, &out, &errb)
		got := errb.String()
		if code != 2 || strings.Count(got, "\n") != 1 || !strings.Contains(got, "no display to open the window on") {
			t.Errorf("featurelab %v: exit %d, stderr %q", args, code, got)
		}
	}
	if noDisplay(func(k string) string { return map[string]string{"WAYLAND_DISPLAY": "wayland-0"}[k] }) != "" {
		t.Error("a Wayland display counts as a display")
	}
}
