package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"featurelab/algorithms/cosegment"
	"featurelab/app/jobs"
	"featurelab/app/pipeline"
	"featurelab/app/report"
	"featurelab/app/segmenting"
	"featurelab/imgproc"
)

// tinyFolder writes n small distinct pictures (12×10, grey levels) into dir and
// returns dir.
func tinyFolder(t *testing.T, dir string, n int) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		writePNG(t, filepath.Join(dir, fmt.Sprintf("p%02d.png", i)), uint8(20*i%250), i%3)
	}
	return dir
}

// writePNG writes a 12×10 picture at path: the grey level v, with a bright square where
// the picture's index mod 3 puts it, so that the pictures differ.
func writePNG(t *testing.T, path string, v uint8, square int) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 12, 10))
	for y := range 10 {
		for x := range 12 {
			c := v
			if x/4 == square && y < 4 {
				c = 255
			}
			img.SetNRGBA(x, y, color.NRGBA{c, c, 255 - c, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// quick are analyze's flags for a fast run on tinyFolder.
var quick = []string{"--algo", "kmeans", "--k", "2", "--restarts", "1", "--pca", "0"}

// run runs the command line and returns its exit code, stdout and stderr.
func run(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := Run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// oneRefusal fails the test unless the command exited 1 with one line on stderr that
// holds every part of want.
func oneRefusal(t *testing.T, code int, stderr string, want ...string) {
	t.Helper()
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "featurelab: ") {
		t.Fatalf("exit %d, stderr %q; want exit 1 and one line", code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q does not say %q", stderr, w)
		}
	}
}

// TestOutputsReplaceOnlyWhatFeatureLabWrote: analyze's --save and --out write to a new
// path or over a file Feature Lab wrote, and refuse anything else — an input picture, a
// user's own features.png in the folder of the images (named directly or through a
// link), a FIFO, a device, a file where a folder should be, a missing folder — in one
// line naming it, before the analysis (the folder to analyse does not exist, so a
// refusal that came after loading it would name it), and leave it as it was.
func TestOutputsReplaceOnlyWhatFeatureLabWrote(t *testing.T) {
	tests := []struct {
		name string
		// args are analyze's outputs, made in the temporary folder root; the images are
		// root/in, which holds a user's own features.png.
		args func(t *testing.T, root string) []string
		want string
	}{
		{"--save over an input picture", func(t *testing.T, root string) []string {
			return []string{"--save", filepath.Join(root, "in", "p00.png")}
		}, "is not a file Feature Lab wrote"},
		{"--save to a FIFO", func(t *testing.T, root string) []string {
			p := filepath.Join(root, "fifo")
			if err := mkfifo(p); err != nil {
				t.Skipf("no FIFO: %v", err)
			}
			return []string{"--save", p}
		}, "is a FIFO (named pipe): not a regular file"},
		{"--save to a link to a device", func(t *testing.T, root string) []string {
			p := filepath.Join(root, "null.featurelab")
			if err := os.Symlink(os.DevNull, p); err != nil {
				t.Skip(err)
			}
			return []string{"--save", p}
		}, "is a character device"},
		{"--save into a missing folder", func(t *testing.T, root string) []string {
			return []string{"--save", filepath.Join(root, "missing", "a.featurelab")}
		}, `missing": no such file or directory`},
		{"--out a regular file", func(t *testing.T, root string) []string {
			p := filepath.Join(root, "file")
			if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{"--out", p}
		}, "is a file, not a folder"},
		{"--out the folder of the images", func(t *testing.T, root string) []string {
			return []string{"--out", filepath.Join(root, "in")}
		}, `features.png" is not a file Feature Lab wrote`},
		{"--out a link to the folder of the images", func(t *testing.T, root string) []string {
			p := filepath.Join(root, "link")
			if err := os.Symlink(filepath.Join(root, "in"), p); err != nil {
				t.Skip(err)
			}
			return []string{"--out", p}
		}, `features.png" is not a file Feature Lab wrote`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			in := tinyFolder(t, filepath.Join(root, "in"), 4)
			writePNG(t, filepath.Join(in, "features.png"), 7, 1) // the user's own
			args := append([]string{"analyze", filepath.Join(root, "not there")}, quick...)
			args = append(append(args, "--out", filepath.Join(root, "out")), tt.args(t, root)...)
			before := tree(t, root)
			code, _, stderr := run(args...)
			oneRefusal(t, code, stderr, tt.want)
			if strings.Contains(stderr, "not there") || strings.Contains(stderr, ".tmp") {
				t.Errorf("refused after the load, or named a temporary file: %q", stderr)
			}
			if after := tree(t, root); after != before {
				t.Errorf("the files changed:\n%s\nthen\n%s", before, after)
			}
		})
	}
}

// tree describes every file below root: its path, its kind and, for a regular file,
// its content's length and first bytes.
func tree(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		head := ""
		if info.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			head = fmt.Sprintf("%d %q", len(data), data[:min(len(data), 16)])
		}
		fmt.Fprintf(&b, "%s %s %s\n", p, info.Mode().Type(), head)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestOutputFolderIsOneRun: a second analyze into the folder of the first replaces its
// outputs and the folder reads as one run (report.CheckRun); a codes.csv of another run
// beside the result, as a run cut short between its files leaves it, is told; and the
// images folder itself may hold the outputs, which its next load skips.
func TestOutputFolderIsOneRun(t *testing.T) {
	root := t.TempDir()
	in := tinyFolder(t, filepath.Join(root, "in"), 6)
	out := filepath.Join(root, "out")
	for _, k := range []string{"2", "3"} {
		if code, _, stderr := run(append([]string{"analyze", in, "--out", out, "--algo", "kmeans", "--k", k}, quick[4:]...)...); code != 0 {
			t.Fatalf("k %s: exit %d: %s", k, code, stderr)
		}
		if err := report.CheckRun(out); err != nil {
			t.Fatalf("k %s: %v", k, err)
		}
	}
	other := filepath.Join(root, "other")
	if code, _, stderr := run(append([]string{"analyze", in, "--out", other}, quick...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	codes, err := os.ReadFile(filepath.Join(other, report.CodesFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, report.CodesFile), codes, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := report.CheckRun(out); err == nil || !strings.Contains(err.Error(), "mixes two runs") {
		t.Errorf("a folder of two runs: %v", err)
	}
	if err := os.Remove(filepath.Join(out, report.ResultFile)); err != nil {
		t.Fatal(err)
	}
	if err := report.CheckRun(out); err == nil || !strings.Contains(err.Error(), "did not finish") {
		t.Errorf("a folder with no result.json: %v", err)
	}
	for range 2 {
		code, stdout, stderr := run(append([]string{"analyze", in, "--out", in, "--json"}, quick...)...)
		if code != 0 || !strings.Contains(stdout, `"n_images": 6`) {
			t.Fatalf("analyze into the images' folder: exit %d: %s %s", code, stderr, stdout)
		}
	}
}

// TestCosegmentKeepsAnInputPicture: `cosegment --out DIR DIR` would write the segments of
// a.png into DIR/a/segments.png, which is a picture of the folder: it writes nothing and
// names it, before co-segmenting (Cosegment checks the images' folders once they load).
func TestCosegmentKeepsAnInputPicture(t *testing.T) {
	dir := tinyFolder(t, t.TempDir(), 3)
	if err := os.Mkdir(filepath.Join(dir, "p00"), 0o755); err != nil {
		t.Fatal(err)
	}
	writePNG(t, filepath.Join(dir, "p00", "segments.png"), 90, 2)
	before := tree(t, dir)
	code, _, stderr := run("cosegment", "--out", dir, "--k", "2", dir)
	oneRefusal(t, code, stderr, filepath.Join("p00", "segments.png")+`" is not a file Feature Lab wrote`)
	var refused error
	_, err := segmenting.Cosegment(context.Background(), pipeline.Source{Dir: dir}, imgproc.Options{}, cosegment.Options{K: 2}, dir,
		func(p jobs.Progress) {
			if strings.HasPrefix(p.Stage, "Co-segmenting") {
				refused = errors.New("co-segmented before refusing: " + p.Stage)
			}
		})
	if err == nil || refused != nil {
		t.Errorf("Cosegment into the images' folder: %v; %v", err, refused)
	}
	if after := tree(t, dir); after != before {
		t.Errorf("the folder changed:\n%s\nthen\n%s", before, after)
	}
}

// TestSortIntoALinkToTheImages: encode --sort-into a symbolic link to the folder of the
// images is that folder: refused, nothing written into it.
func TestSortIntoALinkToTheImages(t *testing.T) {
	root := t.TempDir()
	in := tinyFolder(t, filepath.Join(root, "in"), 4)
	file := filepath.Join(root, "a.featurelab")
	if code, _, stderr := run(append([]string{"analyze", in, "--out", filepath.Join(root, "out"), "--save", file}, quick...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(in, link); err != nil {
		t.Skip(err)
	}
	before := tree(t, in)
	code, _, stderr := run("encode", "--out", filepath.Join(root, "enc"), "--sort-into", filepath.Join(link, "sorted"), file, in)
	oneRefusal(t, code, stderr, "choose a folder outside")
	if after := tree(t, in); after != before {
		t.Errorf("the images' folder changed:\n%s\nthen\n%s", before, after)
	}
}

// failingWriter fails every write, as standard output on a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestSmallRefusals: bad input is one line and exit 1, said before any work; help is
// exit 0 and writes nothing.
func TestSmallRefusals(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	tests := []struct {
		name string
		args []string
		code int
		want []string // in the one line on stderr
		not  []string // not in it
	}{
		{"samples -h", []string{"samples", "-h"}, 0, nil, nil},
		{"samples --help", []string{"samples", "--help"}, 0, nil, nil},
		{"samples -version", []string{"samples", "-version"}, 1, []string{"-version"}, nil},
		{"dpmeans with k and lambda2", []string{"analyze", "not there", "--algo", "dpmeans", "--k", "3", "--lambda2", "5"}, 1,
			[]string{"not both"}, []string{"not there"}},
		{"kl on PCA scores", []string{"analyze", "not there", "--algo", "dpmeans", "--divergence", "kl"}, 1,
			[]string{"--features histogram"}, []string{"not there"}},
		{"a field of a megabyte", []string{"analyze", "--algo", long}, 1, []string{"more bytes)"}, nil},
		{"escape codes in a name", []string{"analyze", "not\x1b[31mthere"}, 1, []string{`\x1b`}, []string{"\x1b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			code, _, stderr := run(tt.args...)
			if tt.code == 0 {
				if code != 0 {
					t.Errorf("exit %d: %s", code, stderr)
				}
			} else {
				oneRefusal(t, code, stderr, tt.want...)
			}
			if len(stderr) > 4000 {
				t.Errorf("stderr is %d bytes long", len(stderr))
			}
			for _, n := range tt.not {
				if strings.Contains(stderr, n) {
					t.Errorf("stderr %q says %q", stderr, n)
				}
			}
			if entries, _ := os.ReadDir("."); len(entries) != 0 {
				t.Errorf("wrote %v", entries)
			}
		})
	}
}

// TestStdoutThatFails: analyze whose standard output cannot be written (> /dev/full)
// exits 1 and says so.
func TestStdoutThatFails(t *testing.T) {
	in := tinyFolder(t, t.TempDir(), 4)
	var stderr bytes.Buffer
	code := Run(append([]string{"analyze", in, "--out", t.TempDir()}, quick...), failingWriter{}, &stderr)
	oneRefusal(t, code, stderr.String(), "writing to standard output: no space left on device")
}

// TestCollapsedDPMeansOnAlikePictures: collapsed DP-means with no λ² on a folder of
// pictures nearly all alike chooses λ² itself, as "no λ²" says, rather than refusing the
// 0 the farthest-first proposal finds there.
func TestCollapsedDPMeansOnAlikePictures(t *testing.T) {
	dir := t.TempDir()
	for i := range 7 {
		v := uint8(100)
		if i == 6 {
			v = 200
		}
		writePNG(t, filepath.Join(dir, fmt.Sprintf("p%d.png", i)), v, 0)
	}
	code, stdout, stderr := run("analyze", dir, "--algo", "collapsed-dpmeans", "--pca", "0", "--restarts", "2", "--out", t.TempDir())
	if code != 0 || !strings.Contains(stdout, "K = 2") {
		t.Errorf("exit %d: %s%s", code, stdout, stderr)
	}
}
