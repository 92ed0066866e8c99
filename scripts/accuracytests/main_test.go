package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAccuracyTestsFollowsHelpers: a test is listed when it calls accuracy.Check itself
// or through helpers of its package however deep, not when it calls none; a package with
// none is left out; a call from a method, which the list cannot follow, is an error.
func TestAccuracyTestsFollowsHelpers(t *testing.T) {
	root := t.TempDir()
	write := func(path, src string) {
		t.Helper()
		path = filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/a_test.go", `package a
func TestDirect(t *testing.T) { accuracy.Check(t) }
func TestInSubtest(t *testing.T) { t.Run("x", func(t *testing.T) { accuracy.Check(t) }) }
func TestUnit(t *testing.T) { unit(t) }
func unit(t *testing.T) {}
`)
	write("a/b_test.go", `package a
func TestDeep(t *testing.T) { outer(t) }
func FuzzSeeds(f *testing.F) { accuracy.Check(f) }
func outer(t *testing.T) { inner(t) }
func inner(t *testing.T) { accuracy.Check(t) }
`)
	write("b/b_test.go", "package b\nfunc TestUnit(t *testing.T) {}\n")
	tests, dirs, err := accuracyTests(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"FuzzSeeds", "TestDeep", "TestDirect", "TestInSubtest"}; !slices.Equal(tests, want) {
		t.Errorf("tests %v, want %v", tests, want)
	}
	if len(dirs) != 1 || !strings.HasSuffix(dirs[0], "/a") {
		t.Errorf("packages %v, want the one holding a", dirs)
	}
	write("c/c_test.go", "package c\ntype fix struct{}\nfunc (fix) load(t *testing.T) { accuracy.Check(t) }\n")
	if _, _, err := accuracyTests(root); err == nil || !strings.Contains(err.Error(), "method load") {
		t.Errorf("a method calling accuracy.Check: error %v", err)
	}
}
