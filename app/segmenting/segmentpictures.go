package segmenting

import (
	"errors"
	"image"
	"io/fs"
	"os"
	"path/filepath"

	"featurelab/algorithms/segment"
)

// Pictures is a segmentation ready to show side by side: the original, the
// colour-coded segments and the boundaries drawn over the original.
type Pictures struct {
	Original, Segments, Boundaries image.Image
}

// Pictures renders the segmentation for display (on the background job: it touches
// every pixel).
func (s *Segmentation) Pictures() Pictures {
	return Pictures{
		Original:   s.Image,
		Segments:   s.Result.ColorImage(),
		Boundaries: segment.BoundaryImage(s.Image, s.Result),
	}
}

// ExistingOutputs lists the output files of a segmentation that already exist in
// dir, so the window can ask before replacing them.
func ExistingOutputs(dir string) []string {
	var found []string
	for _, name := range []string{SegmentsFile, BoundariesFile, LabelsFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			found = append(found, name)
		}
	}
	return found
}
