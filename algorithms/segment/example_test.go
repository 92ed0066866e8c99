package segment

import (
	"context"
	"fmt"
)

func ExampleSegment() {
	// A 64×48 image of four coloured regions with noise, and its true labels.
	img, truth := blocksImage(64, 48, 1)
	res, err := Segment(context.Background(), img, Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Rand index %.2f\n", RandIndex(res.Labels, truth))
	// Output: Rand index 1.00
}

func ExampleRandIndex() {
	seg := []int32{0, 0, 1, 1}
	ref := []int32{5, 5, 5, 7}
	// Of the 6 pixel pairs, {0,1} is joined by both and {0,3}, {1,3} split by both.
	fmt.Printf("RI %.2f, VI %.3f nats\n", RandIndex(seg, ref), VariationOfInformation(seg, ref))
	// Output: RI 0.50, VI 0.824 nats
}
