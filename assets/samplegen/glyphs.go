package samplegen

import "math"

// Stroke glyphs for card ranks: each is polylines in a box of width g.width and height
// glyphHeight units, y down, drawn as thick antialiased lines, so no font file is needed
// and the index can be drawn at any size and turned upside down.
const glyphHeight = 1.6

type glyph struct {
	width   float64
	strokes [][]float64 // polylines as x, y pairs
}

// arc returns points on the ellipse with centre (cx, cy) and radii rx, ry from angle a0 to
// a1 (degrees, clockwise on screen from the +x axis).
func arc(cx, cy, rx, ry, a0, a1 float64) []float64 {
	const steps = 24
	pts := make([]float64, 0, 2*(steps+1))
	for i := 0; i <= steps; i++ {
		a := (a0 + (a1-a0)*float64(i)/steps) * math.Pi / 180
		pts = append(pts, cx+rx*math.Cos(a), cy+ry*math.Sin(a))
	}
	return pts
}

func join(parts ...[]float64) []float64 {
	var pts []float64
	for _, p := range parts {
		pts = append(pts, p...)
	}
	return pts
}

// turnGlyph turns a glyph half a turn inside its box (a 6 becomes a 9).
func turnGlyph(g glyph) glyph {
	t := glyph{width: g.width}
	for _, s := range g.strokes {
		r := make([]float64, len(s))
		for i := 0; i < len(s); i += 2 {
			r[i], r[i+1] = g.width-s[i], glyphHeight-s[i+1]
		}
		t.strokes = append(t.strokes, r)
	}
	return t
}

var six = glyph{1, [][]float64{
	arc(0.5, 1.1, 0.45, 0.5, 0, 360),
	arc(0.95, 1.1, 0.9, 1.05, 180, 265),
}}

var glyphs = map[rune]glyph{
	'A': {1, [][]float64{{0, 1.6, 0.5, 0, 1, 1.6}, {0.2, 1.05, 0.8, 1.05}}},
	'1': {0.6, [][]float64{{0.05, 0.3, 0.45, 0, 0.45, 1.6}}},
	'0': {1, [][]float64{arc(0.5, 0.8, 0.5, 0.8, 0, 360)}},
	'2': {1, [][]float64{join(arc(0.5, 0.45, 0.45, 0.45, 200, 390), []float64{0, 1.6, 1, 1.6})}},
	'3': {1, [][]float64{arc(0.5, 0.42, 0.42, 0.4, 200, 450), arc(0.5, 1.2, 0.48, 0.4, 270, 520)}},
	'4': {1, [][]float64{{0.75, 1.6, 0.75, 0, 0, 1.1, 1, 1.1}}},
	'5': {1, [][]float64{join([]float64{0.9, 0, 0.15, 0, 0.1, 0.72}, arc(0.48, 1.08, 0.47, 0.52, 220, 520))}},
	'6': six,
	'7': {1, [][]float64{{0, 0, 1, 0, 0.35, 1.6}}},
	'8': {1, [][]float64{arc(0.5, 0.4, 0.4, 0.4, 0, 360), arc(0.5, 1.15, 0.48, 0.45, 0, 360)}},
	'9': turnGlyph(six),
}

// glyphGap is the space between two glyphs of a word, in glyph units.
const glyphGap = 0.3

// textWidth is the width of s in glyph units.
func textWidth(s string) float64 {
	w := 0.0
	for i, r := range s {
		if i > 0 {
			w += glyphGap
		}
		w += glyphs[r].width
	}
	return w
}

// text returns s as one shape, centred horizontally on cx with its top at y, glyphs
// height px tall, strokes of half width hw. Runes without a glyph are left blank.
func text(s string, cx, y, height, hw float64) shape {
	k := height / glyphHeight
	x := cx - k*textWidth(s)/2
	var parts []shape
	for _, r := range s {
		g := glyphs[r]
		for _, st := range g.strokes {
			pts := make([]float64, len(st))
			for i := 0; i < len(st); i += 2 {
				pts[i], pts[i+1] = x+k*st[i], y+k*st[i+1]
			}
			parts = append(parts, stroke(hw, pts...))
		}
		x += k * (g.width + glyphGap)
	}
	if len(parts) == 0 {
		return shape{dist: func(x, y float64) float64 { return math.Inf(1) }}
	}
	return union(parts...)
}
