package samplegen

// Icon renders the application icon, a 256×256 PNG: four rounded tiles in a 2×2 grid on a
// dark rounded square, one of them lit up and outlined — a set of features with one
// selected. The corners outside the rounded square are transparent.
func Icon() []byte {
	const size = 256
	c := newCanvas(size, size, 3, rgb{0.13, 0.17, 0.23})
	alpha := newCanvas(size, size, 1, rgb{})
	backdrop := roundRect(size/2, size/2, 120, 120, 44)
	alpha.fill(backdrop, grey(1), 1)
	// A soft glow from the top makes the backdrop less flat.
	c.fillSoft(circle(size/2, -40, 190), rgb{0.22, 0.28, 0.37}, 1, 160)

	tiles := []struct {
		x, y float64
		col  rgb
	}{
		{82, 82, rgb{0.20, 0.62, 0.60}},
		{174, 82, rgb{0.27, 0.46, 0.84}},
		{82, 174, rgb{0.55, 0.42, 0.80}},
		{174, 174, rgb{1.00, 0.70, 0.16}}, // the selected feature
	}
	for i, t := range tiles {
		tile := roundRect(t.x, t.y, 40, 40, 12)
		c.darken(translated(tile, 0, 4), 0.35, 8)
		if i == len(tiles)-1 {
			c.fill(roundRect(t.x, t.y, 47, 47, 17), rgb{1, 1, 1}, 1)
			c.fill(roundRect(t.x, t.y, 43, 43, 14), rgb{0.13, 0.17, 0.23}, 1)
		}
		c.fill(tile, t.col, 1)
		// A bit per tile: a dot, the selected one's filled white.
		if i == len(tiles)-1 {
			c.fill(circle(t.x, t.y, 13), rgb{1, 1, 1}, 1)
		} else {
			c.fill(ring(t.x, t.y, 11, 3), rgb{1, 1, 1}, 0.55)
		}
	}
	return encodePNG(c.nrgba(alpha.pix))
}
