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
