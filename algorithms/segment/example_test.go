package segment

import (
	"context"
	"fmt"

	"featurelab/algorithms/partition"
)

func ExampleSegment() {
	// A 64×48 image of four coloured regions with noise, and its true labels.
	img, truth := blocksImage(64, 48, 1)
	res, err := Segment(context.Background(), img, Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Rand index %.2f\n", partition.RandIndex(res.Labels, truth))
	// Output: Rand index 1.00
}
