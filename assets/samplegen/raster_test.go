package samplegen

import (
	"math"
	"testing"
)

// TestShapeAreas checks the antialiased coverage of each shape sums to its true area.
func TestShapeAreas(t *testing.T) {
	tests := []struct {
		name string
		s    shape
		area float64
	}{
		{"circle", circle(30.3, 29.7, 12), math.Pi * 144},
		{"ellipse", ellipse(32, 30, 20, 8), math.Pi * 160},
		{"rotated ellipse", rotated(ellipse(32, 30, 20, 8), 32, 30, 0.7), math.Pi * 160},
		{"round rect", roundRect(32, 32, 20, 10, 4), 40*20 - (4-math.Pi)*16},
		{"capsule", capsule(10, 10, 40, 30, 3), math.Hypot(30, 20)*6 + math.Pi*9},
		{"ring", ring(32, 32, 15, 2), math.Pi * (17*17 - 13*13)},
		{"taper", taper([]float64{10, 32, 54, 32}, []float64{2, 6}), 44*8 + math.Pi*(4+36)/2},
		{"union of disjoint", union(circle(15, 15, 8), circle(45, 45, 8)), 2 * math.Pi * 64},
		{"subtract", subtract(circle(32, 32, 16), circle(32, 32, 8)), math.Pi * (256 - 64)},
		{"below", intersect(roundRect(32, 32, 20, 20, 0), below(32, 0, 64, 64)), 800},
	}
	for _, tt := range tests {
		c := newCanvas(64, 64, 1, rgb{})
		c.fill(tt.s, grey(1), 1)
		got := 0.0
		for _, v := range c.pix {
			got += v
		}
		if math.Abs(got-tt.area) > 0.02*tt.area {
			t.Errorf("%s: area %.1f, want %.1f", tt.name, got, tt.area)
		}
	}
}

// TestHeart checks the heart pip: point down, symmetric, and turned upside down when flipped.
func TestHeart(t *testing.T) {
	up, down := heart(32, 32, 20, false), heart(32, 32, 20, true)
	for _, p := range [][2]float64{{32, 42}, {26, 24}, {38, 24}} { // the point and the lobes
		if up.dist(p[0], p[1]) > 0 {
			t.Errorf("point %v outside the heart", p)
		}
		if got, want := down.dist(p[0], 64-p[1]), up.dist(p[0], p[1]); math.Abs(got-want) > 1e-9 {
			t.Errorf("flipped heart at %v: %v, want %v", p, got, want)
		}
	}
	if up.dist(32, 21.5) < 0 { // the cleft between the lobes
		t.Error("the cleft is inside the heart")
	}
	if got, want := up.dist(25, 30), up.dist(39, 30); math.Abs(got-want) > 1e-9 {
		t.Errorf("not symmetric: %v, %v", got, want)
	}
}
