// Package guide ties the guide's pictures (docs/img, made by `make screenshots` from the
// real window) to the window code they show: SourcesDigest names that code's state, and
// the pictures' SOURCES file records it when they are made.
package guide

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SourcesDigest is the SHA-256 over the window's Go files in dir (views/, not its tests
// nor its subfolders), each name and code in name order: it changes when the window code
// does, not when a comment or the layout of the text does (each file is hashed as its
// tokens, without comments and the semicolons a line's end stands for).
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
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return "", err
		}
		h.Write([]byte(n + "\n"))
		var s scanner.Scanner
		var bad error
		s.Init(token.NewFileSet().AddFile(n, -1, len(src)), src, func(pos token.Position, msg string) {
			bad = fmt.Errorf("%s: %s", pos, msg)
		}, 0)
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.SEMICOLON && lit == "\n" {
				continue // a line's end, not code
			}
			fmt.Fprintf(h, "%d %s\n", tok, lit)
		}
		if bad != nil {
			return "", bad
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
