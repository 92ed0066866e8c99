package samplegen

import "testing"

// The generator runs only under go generate and in the drift test, but it is what makes
// that test slow under -race, so its cost is tracked.

func BenchmarkTabletop(b *testing.B) {
	for b.Loop() {
		Tabletop()
	}
}

func BenchmarkFaces(b *testing.B) {
	for b.Loop() {
		Faces()
	}
}

func BenchmarkFill(b *testing.B) {
	c := newCanvas(320, 240, 3, rgb{})
	s := rotated(roundRect(160, 120, 60, 40, 8), 160, 120, 0.3)
	for b.Loop() {
		c.fill(s, rgb{1, 0, 0}, 1)
	}
}
