package pipeline

import (
	"fmt"
	"slices"

	"featurelab/imgproc"
)

// checkLearnable rejects, in words a user reads, a data set there is nothing to learn
// from: a single image, or images that are all the same picture. Without it these reach
// the PCA or a learner and come back as "Y has no variance" or a λ² of 0.
func checkLearnable(ds *imgproc.Dataset) error {
	n := len(ds.Names)
	if n < 2 {
		return fmt.Errorf("%d image is too few to learn from: need at least 2", n)
	}
	first := ds.Row(0)
	for i := 1; i < n; i++ {
		if !slices.Equal(ds.Row(i), first) {
			return nil
		}
	}
	flat := true
	for _, v := range first {
		if v != first[0] {
			flat = false
			break
		}
	}
	switch {
	case flat && first[0] == 0:
		return fmt.Errorf("all %d images are black: there is nothing to learn", n)
	case flat:
		return fmt.Errorf("all %d images are one flat colour: there is nothing to learn", n)
	}
	return fmt.Errorf("all %d images are identical: there is nothing to learn", n)
}
