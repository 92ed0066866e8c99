// Command generate renders Feature Lab's built-in sample data sets and the application
// icon with package samplegen and writes them into the assets package, where they are
// embedded into the binary:
//
//	assets/samples/<set>/…      the images, truth.csv and features.txt of every set
//	assets/icon.png             the application icon
//
// Run it from anywhere in the module with `go generate ./assets` or
// `go run ./assets/generate`. It replaces the whole samples folder, so a set that shrinks
// leaves no stale files behind; the output is byte-identical on every run.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"featurelab/assets/samplegen"
)

func main() {
	dir := flag.String("dir", "", "the assets folder to write into (default: assets/ of the enclosing module)")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			return err
		}
		dir = filepath.Join(root, "assets")
	}
	samples := filepath.Join(dir, "samples")
	if err := os.RemoveAll(samples); err != nil {
		return err
	}
	total := 0
	for _, set := range samplegen.All() {
		setDir := filepath.Join(samples, set.Name)
		if err := os.MkdirAll(setDir, 0o755); err != nil {
			return err
		}
		bytes := 0
		for _, f := range set.Files() {
			if err := os.WriteFile(filepath.Join(setDir, f.Name), f.Data, 0o644); err != nil {
				return err
			}
			bytes += len(f.Data)
		}
		total += bytes
		fmt.Printf("%-9s %3d images, %d features, %7d bytes\n", set.Name, len(set.Images), len(set.FeatureNames), bytes)
	}
	icon := samplegen.Icon()
	if err := os.WriteFile(filepath.Join(dir, "icon.png"), icon, 0o644); err != nil {
		return err
	}
	fmt.Printf("samples total %d bytes; icon.png %d bytes\n", total, len(icon))
	return nil
}

// moduleRoot is the nearest folder at or above the working directory holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod found above the working directory; pass -dir")
		}
		dir = parent
	}
}
