package cosegment

import (
	"context"
	"testing"
)

// BenchmarkCosegment co-segments 20 generated photos of 320×240 (six-colour palette,
// noise 6) with the defaults: the cells' colours, the hard HDP's restarts and the labels.
func BenchmarkCosegment(b *testing.B) {
	imgs, _ := paletteImages(1, 20, 320, 240, 6)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Cosegment(context.Background(), Slice(imgs), Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
