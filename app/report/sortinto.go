package report

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"featurelab/internal/atomicfile"
)

// SortInto writes the images into folders of out by what they hold: one folder per
// feature, "feature N" (N counted from 1, as the window numbers them) with the images
// that own it, the base left out since every image owns it, and one per distinct code,
// "code 10110". names are the images' paths inside src, codes their codes, base the
// base feature or −1. Each image is a symbolic link to its file where the file system
// allows, a copy otherwise, under its own name (with its subfolders joined into it,
// "s1 - 1.pgm", so that the images of several subfolders can share one). Nothing is
// overwritten: when any of the files it would write exists already, it writes none and
// says which. out must not lie inside src, links followed (SortTarget).
//
// The sort is made in a temporary folder beside out and moved into place once whole, so
// a sort that fails (a name too long, a full disk) leaves nothing behind. It returns how
// many files it wrote.
func SortInto(out, src string, names, codes []string, base int) (int, error) {
	if len(names) != len(codes) {
		return 0, fmt.Errorf("sort into: %d names and %d codes", len(names), len(codes))
	}
	out, srcAbs, err := SortTarget(out, src)
	if err != nil {
		return 0, err
	}
	type placed struct{ from, to string } // to: relative to out
	var plan []placed
	seen := map[string]bool{}
	for i, name := range names {
		file := flatName(name)
		add := func(folder string) error {
			to := filepath.Join(folder, file)
			if seen[to] {
				return fmt.Errorf("sort into: two images would both be %q", filepath.Join(out, to))
			}
			seen[to] = true
			if _, err := os.Lstat(filepath.Join(out, to)); err == nil {
				return fmt.Errorf("sort into: %q exists; nothing was written", filepath.Join(out, to))
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
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return 0, fmt.Errorf("sort into %q: %w", out, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), "."+filepath.Base(out)+".sorting-*")
	if err != nil {
		return 0, fmt.Errorf("sort into %q: %w", out, atomicfile.Cause(err))
	}
	defer os.RemoveAll(tmp)
	for _, p := range plan {
		to := filepath.Join(tmp, p.to)
		err := os.MkdirAll(filepath.Dir(to), 0o755)
		if err == nil && os.Symlink(p.from, to) != nil {
			err = copyFile(p.from, to)
		}
		if err != nil {
			return 0, fmt.Errorf("sort into %q: %w; nothing was written", filepath.Join(out, p.to), atomicfile.Cause(err))
		}
	}
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(tmp, out); err != nil {
			return 0, fmt.Errorf("sort into %q: %w; nothing was written", out, atomicfile.Cause(err))
		}
		return len(plan), nil
	}
	rels := make([]string, len(plan))
	for i, p := range plan {
		rels[i] = p.to
	}
	return len(plan), moveInto(out, tmp, rels)
}

// moveInto moves the files files (relative paths) of the folder from into the folder out,
// making the folders they need, and replacing none; when one cannot be moved it takes
// back those it moved and the folders it made, and says so.
func moveInto(out, from string, files []string) error {
	var moved, made []string
	undo := func(err error) error {
		for _, m := range slices.Backward(moved) {
			os.Remove(m)
		}
		for _, d := range slices.Backward(made) {
			os.Remove(d)
		}
		return fmt.Errorf("sort into %q: %w; nothing was written", out, err)
	}
	for _, rel := range files {
		to := filepath.Join(out, rel)
		for _, d := range missingFolders(out, filepath.Dir(rel)) {
			if err := os.Mkdir(d, 0o755); err != nil {
				return undo(err)
			}
			made = append(made, d)
		}
		if _, err := os.Lstat(to); err == nil {
			return undo(fmt.Errorf("%q appeared meanwhile", to))
		}
		if err := os.Rename(filepath.Join(from, rel), to); err != nil {
			return undo(atomicfile.Cause(err))
		}
		moved = append(moved, to)
	}
	return nil
}

// missingFolders are the folders out/rel and those between, outermost first, that do not
// exist yet.
func missingFolders(out, rel string) []string {
	var missing []string
	for d := filepath.Join(out, rel); d != out && d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	slices.Reverse(missing)
	return missing
}

// SortTarget is out and src made absolute, or an error when out lies inside src, the
// links on the way to either followed: the next load of src would count the sorted links
// as images.
func SortTarget(out, src string) (string, string, error) {
	srcAbs, err := filepath.Abs(src)
	if err != nil {
		return "", "", err
	}
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return "", "", err
	}
	srcReal, outReal := realPath(srcAbs), realPath(outAbs)
	if outReal == srcReal || strings.HasPrefix(outReal, srcReal+string(filepath.Separator)) {
		return "", "", fmt.Errorf("sort into: choose a folder outside %q (%q lies in it), whose next load would count the sorted links as images", srcAbs, outAbs)
	}
	return outAbs, srcAbs, nil
}

// realPath is the absolute path abs with the symbolic links of its longest existing
// part followed (filepath.EvalSymlinks), so that two names of one folder compare equal
// whether or not all of it exists yet.
func realPath(abs string) string {
	rest := ""
	for p := abs; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		if p == filepath.Dir(p) {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
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
