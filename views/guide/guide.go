// Package guide ties the guide's pictures (docs/img, made by `make screenshots` from the
// real window) to the window code they show: SourcesDigest names that code's state, and
// the pictures' SOURCES file records it when they are made.
package guide

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SourcesDigest is the SHA-256 over the window's Go files in dir (views/, not its tests
// nor its subfolders), each name and content in name order: it changes when the window
// code does.
func SourcesDigest(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return "", err
		}
		h.Write([]byte(n + "\n"))
		h.Write(b)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
