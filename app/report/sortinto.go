package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SortInto writes the images into folders of out by what they hold: one folder per
// feature, "feature N" (N counted from 1, as the window numbers them) with the images
// that own it, the base left out since every image owns it, and one per distinct code,
// "code 10110". names are the images' paths inside src, codes their codes, base the
// base feature or −1. Each image is a symbolic link to its file where the file system
// allows, a copy otherwise, under its own name (with its subfolders joined into it,
// "s1 - 1.pgm", so that the images of several subfolders can share one). Nothing is
// overwritten: when any of the files it would write exists already, it writes none and
// says which. out must not lie inside src (SortTarget). It returns how many files it
// wrote.
func SortInto(out, src string, names, codes []string, base int) (int, error) {
	if len(names) != len(codes) {
		return 0, fmt.Errorf("sort into: %d names and %d codes", len(names), len(codes))
	}
	out, srcAbs, err := SortTarget(out, src)
	if err != nil {
		return 0, err
	}
	type placed struct{ from, to string }
	var plan []placed
	seen := map[string]bool{}
	for i, name := range names {
		file := flatName(name)
		add := func(folder string) error {
			to := filepath.Join(out, folder, file)
			if seen[to] {
				return fmt.Errorf("sort into: two images would both be %s", to)
			}
			seen[to] = true
			if _, err := os.Lstat(to); err == nil {
				return fmt.Errorf("sort into: %s exists; nothing was written", to)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			plan = append(plan, placed{filepath.Join(srcAbs, name), to})
			return nil
		}
		for k, bit := range codes[i] {
			if bit == '1' && k != base {
				if err := add(fmt.Sprintf("feature %d", k+1)); err != nil {
					return 0, err
				}
			}
		}
		if err := add("code " + codes[i]); err != nil {
			return 0, err
		}
	}
	for n, p := range plan {
		if err := os.MkdirAll(filepath.Dir(p.to), 0o755); err != nil {
			return n, err
		}
		if err := os.Symlink(p.from, p.to); err != nil {
			if err := copyFile(p.from, p.to); err != nil {
				return n, err
			}
		}
	}
	return len(plan), nil
}

// SortTarget is out and src made absolute, or an error when out lies inside src: the
// next load of src would count the sorted links as images.
func SortTarget(out, src string) (string, string, error) {
	srcAbs, err := filepath.Abs(src)
	if err != nil {
		return "", "", err
	}
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return "", "", err
	}
	if outAbs == srcAbs || strings.HasPrefix(outAbs, srcAbs+string(filepath.Separator)) {
		return "", "", fmt.Errorf("sort into: choose a folder outside %s, whose next load would count the sorted links as images", srcAbs)
	}
	return outAbs, srcAbs, nil
}

// flatName is an image's name with its subfolders joined into it by " - ", so that
// images of several subfolders can share one folder.
func flatName(name string) string {
	return strings.Join(strings.Split(filepath.ToSlash(name), "/"), " - ")
}

// copyFile copies from to a new file to, which must not exist.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
