package pipeline

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"featurelab/algorithms/partition"
	"featurelab/assets"
	"featurelab/imgproc"
)

// DefaultSample is the built-in data set the window opens with and `analyze` uses without DIR.
const DefaultSample = "tabletop"

// Source says where a data set comes from: a folder on disk, or a built-in sample by name.
type Source struct {
	Dir    string // a folder (searched recursively)
	Sample string // a built-in sample name (assets.Names); used when Dir is empty
}

// String names the source for messages and titles.
func (s Source) String() string {
	if s.Dir != "" {
		return s.Dir
	}
	return "built-in sample " + s.SampleName()
}

func (s Source) SampleName() string {
	if s.Sample == "" {
		return DefaultSample
	}
	return s.Sample
}

// SinglePicture reports whether err is Load's refusal of a folder with one usable
// picture, and that picture's path: too few to learn from, but one to segment.
func (s Source) SinglePicture(err error) (string, bool) {
	var one *imgproc.OneImageError
	if s.Dir == "" || !errors.As(err, &one) {
		return "", false
	}
	return filepath.Join(s.Dir, filepath.FromSlash(one.Name)), true
}

// Load reads every usable image of the source.
func (s Source) Load(ctx context.Context, opt imgproc.Options) (*imgproc.Dataset, error) {
	if s.Dir != "" {
		return imgproc.Load(ctx, s.Dir, opt)
	}
	name := s.SampleName()
	if !slices.Contains(assets.Names(), name) {
		return nil, fmt.Errorf("unknown built-in sample %q (have %v)", name, assets.Names())
	}
	sub, err := fs.Sub(assets.Samples(), name)
	if err != nil {
		return nil, err
	}
	ds, err := imgproc.LoadFS(ctx, sub, ".", opt)
	if err != nil {
		return nil, err
	}
	// A sample folder also holds its truth.csv and features.txt; they are not skips to report.
	ds.Skipped = slices.DeleteFunc(ds.Skipped, func(s imgproc.Skip) bool {
		return s.Path == "truth.csv" || s.Path == "features.txt"
	})
	return ds, nil
}

// Image decodes one original picture of the source by its name in the data set (a path
// relative to the folder), at full size and on white where it is transparent: what the
// segmentation view shows and segments.
func (s Source) Image(name string) (image.Image, error) {
	fsys := os.DirFS(s.Dir)
	if s.Dir == "" {
		sub, err := fs.Sub(assets.Samples(), s.SampleName())
		if err != nil {
			return nil, err
		}
		fsys = sub
	}
	img, err := imgproc.Open(fsys, name, 0)
	if err != nil {
		return nil, err
	}
	return imgproc.OnWhite(img), nil
}

// Subfolders numbers the images' subfolders: each image's 0…k−1 in order of first
// appearance, and k; images directly in the folder have none, and then it returns nil, 0.
func Subfolders(names []string) ([]int32, int) {
	folders := make([]string, len(names))
	for i, name := range names {
		dir := path.Dir(name)
		if dir == "." {
			return nil, 0
		}
		folders[i] = dir
	}
	return partition.Compact(partition.Number(folders))
}
