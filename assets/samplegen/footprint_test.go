package samplegen

import "testing"

// footprint marks the pixels that draw changes on a copy of base.
func footprint(base *canvas, draw func(c *canvas)) []bool {
	c := base.clone()
	draw(c)
	mark := make([]bool, c.w*c.h)
	for i, v := range c.pix {
		if v != base.pix[i] {
			mark[i/c.ch] = true
		}
	}
	return mark
}

// disjoint fails the test if two footprints share a pixel.
func disjoint(t *testing.T, names []string, marks [][]bool, w int) {
	t.Helper()
	for a := range marks {
		for b := a + 1; b < len(marks); b++ {
			for i := range marks[a] {
				if marks[a][i] && marks[b][i] {
					t.Errorf("%s and %s both change pixel (%d, %d)", names[a], names[b], i%w, i/w)
					break
				}
			}
		}
	}
}

// TestTabletopObjectsApart checks that no two objects, shadows included, touch a common
// pixel wherever the jitter puts them — the additivity the truth codes rely on.
func TestTabletopObjectsApart(t *testing.T) {
	base := tableBase()
	draw := []func(c *canvas, dx, dy float64){drawMug, drawBook, drawBanana, drawPhone}
	var marks [][]bool
	const j = tabletopJitter
	for _, d := range draw {
		marks = append(marks, footprint(base, func(c *canvas) {
			for _, off := range [][2]float64{{-j, -j}, {j, -j}, {-j, j}, {j, j}} {
				d(c, off[0], off[1])
			}
		}))
	}
	disjoint(t, tabletopFeatures, marks, tabletopW)
}

// TestFaceTraitsApart checks the same for the faces' traits; the smile's footprint is
// where the grin or the straight mouth is drawn.
func TestFaceTraitsApart(t *testing.T) {
	base := faceBase()
	var marks [][]bool
	for j := range facesFeatures {
		marks = append(marks, footprint(base, func(c *canvas) {
			drawTrait(c, j, true)
			if j == 1 {
				drawTrait(c, j, false)
			}
		}))
	}
	disjoint(t, facesFeatures, marks, faceSize)
}

// TestFootprintCatchesOverlap makes sure the check can fail.
func TestFootprintCatchesOverlap(t *testing.T) {
	base := newCanvas(20, 20, 1, grey(0.5))
	a := footprint(base, func(c *canvas) { c.fill(circle(8, 8, 3), grey(0), 1) })
	b := footprint(base, func(c *canvas) { c.fill(circle(12, 8, 3), grey(0), 1) })
	shared := 0
	for i := range a {
		if a[i] && b[i] {
			shared++
		}
	}
	if shared == 0 {
		t.Fatal("overlapping circles have disjoint footprints")
	}
}
