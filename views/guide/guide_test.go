package guide

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGuidePicturesAreCurrent: every picture the README and docs/ show is there, and the
// guide's pictures (docs/img, made by `make screenshots` from the real window) were made
// from the window code as it is: docs/img/SOURCES holds the digest of views/*.go they
// were made from.
func TestGuidePicturesAreCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"))
	picture := regexp.MustCompile(`!\[[^\]]*\]\(([^)]+)\)`)
	shown := 0
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range picture.FindAllStringSubmatch(string(b), -1) {
			shown++
			path := filepath.Join(filepath.Dir(page), filepath.FromSlash(m[1]))
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s shows %s, which is missing: make screenshots", page, m[1])
			}
		}
	}
	if shown == 0 {
		t.Error("the README and docs/ show no picture")
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "img", "SOURCES"))
	if err != nil {
		t.Fatalf("the guide's pictures say no window code they show (%v): make screenshots", err)
	}
	want, err := SourcesDigest("..")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(b)); got != want {
		t.Errorf("the guide's pictures were made from other window code (%s, now %s): make screenshots", got, want)
	}
}

// TestSourcesDigestFollowsTheCode: the digest changes with the code and with a file's
// name, not with a comment or a file's layout, nor with a test file.
func TestSourcesDigestFollowsTheCode(t *testing.T) {
	digest := func(files map[string]string) string {
		t.Helper()
		dir := t.TempDir()
		for name, src := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d, err := SourcesDigest(dir)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	base := digest(map[string]string{"a.go": "package v\n\nfunc f() int { return 1 }\n"})
	for _, c := range []struct {
		what  string
		files map[string]string
		same  bool
	}{
		{"a comment", map[string]string{"a.go": "package v\n\n// f is one.\nfunc f() int {\n\treturn 1 // one\n}\n"}, true},
		{"a test file", map[string]string{"a.go": "package v\n\nfunc f() int { return 1 }\n", "a_test.go": "package v\n"}, true},
		{"the code", map[string]string{"a.go": "package v\n\nfunc f() int { return 2 }\n"}, false},
		{"the name", map[string]string{"b.go": "package v\n\nfunc f() int { return 1 }\n"}, false},
	} {
		if got := digest(c.files); (got == base) != c.same {
			t.Errorf("%s: digest the same %v, want %v", c.what, got == base, c.same)
		}
	}
}
