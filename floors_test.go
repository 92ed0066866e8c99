package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// floors is the order the module's packages stand in, lowest first: data flows up
// (imgproc → pca → algorithms → app → views → the command line and main), and a package
// imports only from its own floor or below. internal/ and assets/ are the ground: helpers
// and data every floor may use.
var floors = []string{"internal", "assets", "imgproc", "pca", "algorithms", "app", "views", "cli", "scripts", ""}

// windowReads is what the window (views) may import of the module: the session API
// (app: the flows, the values the window holds, what it shows and writes), the learners'
// registry it builds its forms from, and the ground. Everything else reaches it through
// app, so that the subpackages below can change without the window.
var windowReads = map[string]bool{"app": true, "algorithms": true, "assets": true, "internal/about": true}

// floorOf is the floor of a package by its directory in the module ("" for the root).
func floorOf(dir string) int {
	top, _, _ := strings.Cut(filepath.ToSlash(dir), "/")
	if top == "." {
		top = ""
	}
	for i, f := range floors {
		if f == top {
			return i
		}
	}
	return -1
}

// TestNoUpwardImports reads the imports of every non-test Go file of the module and fails
// on one that climbs: a package importing from a floor above its own (floors), or a
// directory no floor names.
func TestNoUpwardImports(t *testing.T) {
	const module = "featurelab/"
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin" || name == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		dir := filepath.Dir(path)
		own := floorOf(dir)
		if own < 0 {
			t.Errorf("%s: the directory %s stands on no floor", path, dir)
			return nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			if up := floorOf(strings.TrimPrefix(p, module)); up > own {
				t.Errorf("%s imports %s: from %q up to %q", path, p, floors[own], floors[up])
			}
			if floors[own] == "views" && !windowReads[strings.TrimPrefix(p, module)] {
				t.Errorf("%s imports %s: the window reads the session through app alone", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files; the walk missed the module", files)
	}
}
