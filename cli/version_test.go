package cli

import (
	"bytes"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"featurelab/internal/about"
)

// TestVersion runs `featurelab --version` (and its spellings) with the metadata of the
// checkout's FyneApp.toml, as package main sets it, and checks the version and build
// printed are that file's, read here without the about package's parser. (A test binary's
// build info lists no modules, so Fyne's version is checked on the real binary, by
// scripts/dist-check.sh.)
func TestVersion(t *testing.T) {
	toml, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := about.Metadata(toml, nil)
	if err != nil {
		t.Fatal(err)
	}
	about.Set(meta)
	version := regexp.MustCompile(`(?m)^\s*Version\s*=\s*"([^"]+)"`).FindSubmatch(toml)
	build := regexp.MustCompile(`(?m)^\s*Build\s*=\s*(\d+)`).FindSubmatch(toml)
	if version == nil || build == nil {
		t.Fatalf("FyneApp.toml has no Version or Build:\n%s", toml)
	}
	first := "Feature Lab " + string(version[1]) + " (build " + string(build[1]) + ")"
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--version"}, 0, []string{first + "\n", "\ncommit: ", "\ngo:     " + runtime.Version() + " ", "\nfyne:   ", "\nid:     io.github.featurelab\n"}},
		{[]string{"-version"}, 0, []string{first + "\n"}},
		{[]string{"version"}, 0, []string{first + "\n"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(tc.args, &stdout, &stderr)
			if code != tc.code || stderr.Len() != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr.String())
			}
			out := stdout.String()
			if !strings.HasPrefix(out, first+"\n") {
				t.Errorf("first line of\n%s\nis not %q", out, first)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output\n%s\nlacks %q", out, w)
				}
			}
		})
	}
}
