package samplegen

import (
	"image"
	"image/color"
	"math"
)

// hypot is √(x²+y²) without math.Hypot's care for overflow, which pixel coordinates
// never need; it is the innermost call of every distance field.
func hypot(x, y float64) float64 { return math.Sqrt(x*x + y*y) }

// rgb is a colour with channels in [0, 1]. Grey canvases use only the first channel.
type rgb [3]float64

func grey(v float64) rgb { return rgb{v, v, v} }

// canvas is an image with float64 samples in [0, 1], laid out pix[(y*w+x)*ch+c], so that
// painting, lighting and noise happen before the single quantisation to 8 bits.
type canvas struct {
	w, h, ch int
	pix      []float64
}

func newCanvas(w, h, ch int, bg rgb) *canvas {
	c := &canvas{w: w, h: h, ch: ch, pix: make([]float64, w*h*ch)}
	for i := 0; i < w*h; i++ {
		copy(c.pix[i*ch:i*ch+ch], bg[:ch])
	}
	return c
}

func (c *canvas) clone() *canvas {
	d := *c
	d.pix = append([]float64(nil), c.pix...)
	return &d
}

// shape is a signed distance field in pixel units (negative inside) with a bounding box
// outside which the distance is known to be ≥ 1, so painting can skip those pixels.
type shape struct {
	dist           func(x, y float64) float64
	x0, y0, x1, y1 float64
}

// margin widens bounding boxes so that soft (shadow) edges are not clipped.
const margin = 2

func boxed(dist func(x, y float64) float64, x0, y0, x1, y1 float64) shape {
	return shape{dist: dist, x0: x0 - margin, y0: y0 - margin, x1: x1 + margin, y1: y1 + margin}
}

func circle(cx, cy, r float64) shape {
	return boxed(func(x, y float64) float64 {
		return hypot(x-cx, y-cy) - r
	}, cx-r, cy-r, cx+r, cy+r)
}

// ellipse uses the first-order distance estimate f/|∇f| of f = |p/r| − 1 (scaled by |p/r|
// so it stays bounded near the centre), which is exact on the boundary — all that
// antialiasing needs.
func ellipse(cx, cy, rx, ry float64) shape {
	return boxed(func(x, y float64) float64 {
		dx, dy := x-cx, y-cy
		k0 := hypot(dx/rx, dy/ry)
		k1 := hypot(dx/(rx*rx), dy/(ry*ry))
		if k1 == 0 {
			return -math.Min(rx, ry)
		}
		return k0 * (k0 - 1) / k1
	}, cx-rx, cy-ry, cx+rx, cy+ry)
}

// roundRect is the rectangle with centre (cx, cy), half sizes hw × hh and corner radius r.
func roundRect(cx, cy, hw, hh, r float64) shape {
	return boxed(func(x, y float64) float64 {
		qx := math.Abs(x-cx) - (hw - r)
		qy := math.Abs(y-cy) - (hh - r)
		out := hypot(math.Max(qx, 0), math.Max(qy, 0))
		return out + math.Min(math.Max(qx, qy), 0) - r
	}, cx-hw, cy-hh, cx+hw, cy+hh)
}

// capsule is the thick line from (x0, y0) to (x1, y1) with round caps, half width r.
func capsule(x0, y0, x1, y1, r float64) shape {
	dx, dy := x1-x0, y1-y0
	l2 := dx*dx + dy*dy
	return boxed(func(x, y float64) float64 {
		t := 0.0
		if l2 > 0 {
			t = math.Max(0, math.Min(1, ((x-x0)*dx+(y-y0)*dy)/l2))
		}
		return hypot(x-x0-t*dx, y-y0-t*dy) - r
	}, math.Min(x0, x1)-r, math.Min(y0, y1)-r, math.Max(x0, x1)+r, math.Max(y0, y1)+r)
}

// stroke is a polyline of half width r through pts (x, y pairs).
func stroke(r float64, pts ...float64) shape {
	parts := make([]shape, 0, len(pts)/2)
	for i := 2; i+1 < len(pts); i += 2 {
		parts = append(parts, capsule(pts[i-2], pts[i-1], pts[i], pts[i+1], r))
	}
	return union(parts...)
}

// taper is a thick polyline through pts (x, y pairs) whose half width varies linearly
// along each segment, from radii[i] at point i to radii[i+1] at point i+1. Its distance is
// exact across the stroke and close enough along it for antialiasing when the width
// changes slowly.
func taper(pts, radii []float64) shape {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i, r := range radii {
		x, y := pts[2*i], pts[2*i+1]
		x0, y0 = math.Min(x0, x-r), math.Min(y0, y-r)
		x1, y1 = math.Max(x1, x+r), math.Max(y1, y+r)
	}
	return boxed(func(x, y float64) float64 {
		d := math.Inf(1)
		for i := 1; i < len(radii); i++ {
			ax, ay := pts[2*i-2], pts[2*i-1]
			dx, dy := pts[2*i]-ax, pts[2*i+1]-ay
			t := math.Max(0, math.Min(1, ((x-ax)*dx+(y-ay)*dy)/(dx*dx+dy*dy)))
			ex, ey := x-ax-t*dx, y-ay-t*dy
			// Skip the square root when this segment cannot beat the best so far.
			if reach := d + math.Max(radii[i-1], radii[i]); ex*ex+ey*ey >= reach*reach {
				continue
			}
			r := radii[i-1] + t*(radii[i]-radii[i-1])
			d = math.Min(d, math.Sqrt(ex*ex+ey*ey)-r)
		}
		return d
	}, x0, y0, x1, y1)
}

// ring is the circle outline of radius r and half width hw.
func ring(cx, cy, r, hw float64) shape {
	return boxed(func(x, y float64) float64 {
		return math.Abs(hypot(x-cx, y-cy)-r) - hw
	}, cx-r-hw, cy-r-hw, cx+r+hw, cy+r+hw)
}

// heart is a heart of height about 1.1·s centred on (cx, cy), point down (or up when
// flipped, as the pips in a card's lower half). The distance is Inigo Quilez's exact
// heart field in units where the point is at the origin and the lobes reach y ≈ 1.1.
func heart(cx, cy, s float64, flipped bool) shape {
	const mid = 0.552 // half of the heart's height in units of s
	return boxed(func(x, y float64) float64 {
		px := math.Abs(x-cx) / s
		py := (cy - y) / s
		if flipped {
			py = -py
		}
		py += mid
		if py+px > 1 {
			return (hypot(px-0.25, py-0.75) - math.Sqrt2/4) * s
		}
		a := hypot(px, py-1)
		t := 0.5 * math.Max(px+py, 0)
		b := hypot(px-t, py-t)
		d := math.Min(a, b)
		if px < py {
			d = -d
		}
		return d * s
	}, cx-0.61*s, cy-mid*s, cx+0.61*s, cy+mid*s)
}

// below is the part of the image under the horizontal line y = y0, bounded (for
// painting) to the columns x0…x1 and the rows down to y1.
func below(y0, x0, x1, y1 float64) shape {
	return boxed(func(x, y float64) float64 { return y0 - y }, x0, y0, x1, y1)
}

func union(parts ...shape) shape {
	s := parts[0]
	for _, p := range parts[1:] {
		s.x0, s.y0 = math.Min(s.x0, p.x0), math.Min(s.y0, p.y0)
		s.x1, s.y1 = math.Max(s.x1, p.x1), math.Max(s.y1, p.y1)
	}
	s.dist = func(x, y float64) float64 {
		d := math.Inf(1)
		for _, p := range parts {
			d = math.Min(d, p.dist(x, y))
		}
		return d
	}
	return s
}

// intersect keeps what lies inside both a and b.
func intersect(a, b shape) shape {
	return shape{
		dist: func(x, y float64) float64 { return math.Max(a.dist(x, y), b.dist(x, y)) },
		x0:   math.Max(a.x0, b.x0), y0: math.Max(a.y0, b.y0),
		x1: math.Min(a.x1, b.x1), y1: math.Min(a.y1, b.y1),
	}
}

// subtract keeps what lies inside a and outside b.
func subtract(a, b shape) shape {
	return shape{
		dist: func(x, y float64) float64 { return math.Max(a.dist(x, y), -b.dist(x, y)) },
		x0:   a.x0, y0: a.y0, x1: a.x1, y1: a.y1,
	}
}

// rotated turns s by angle (radians, clockwise on screen) about (cx, cy).
func rotated(s shape, cx, cy, angle float64) shape {
	sin, cos := math.Sincos(angle)
	r := shape{dist: func(x, y float64) float64 {
		dx, dy := x-cx, y-cy
		return s.dist(cx+dx*cos+dy*sin, cy-dx*sin+dy*cos)
	}}
	r.x0, r.y0, r.x1, r.y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range [4][2]float64{{s.x0, s.y0}, {s.x1, s.y0}, {s.x0, s.y1}, {s.x1, s.y1}} {
		dx, dy := p[0]-cx, p[1]-cy
		x, y := cx+dx*cos-dy*sin, cy+dx*sin+dy*cos
		r.x0, r.y0 = math.Min(r.x0, x), math.Min(r.y0, y)
		r.x1, r.y1 = math.Max(r.x1, x), math.Max(r.y1, y)
	}
	return r
}

// translated moves s by (dx, dy).
func translated(s shape, dx, dy float64) shape {
	return shape{
		dist: func(x, y float64) float64 { return s.dist(x-dx, y-dy) },
		x0:   s.x0 + dx, y0: s.y0 + dy, x1: s.x1 + dx, y1: s.y1 + dy,
	}
}

// coverage is the fraction of a pixel covered by a shape whose edge is softened over
// soft pixels: 1 well inside, 0 well outside, linear across the edge.
func coverage(d, soft float64) float64 {
	return math.Max(0, math.Min(1, 0.5-d/soft))
}

// each calls f for every pixel in s's box with its coverage, skipping empty pixels.
func (c *canvas) each(s shape, soft float64, f func(i int, a float64)) {
	pad := soft / 2
	x0 := max(0, int(math.Floor(s.x0-pad)))
	y0 := max(0, int(math.Floor(s.y0-pad)))
	x1 := min(c.w, int(math.Ceil(s.x1+pad))+1)
	y1 := min(c.h, int(math.Ceil(s.y1+pad))+1)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if a := coverage(s.dist(float64(x)+0.5, float64(y)+0.5), soft); a > 0 {
				f((y*c.w+x)*c.ch, a)
			}
		}
	}
}

// fill paints s in col with the given opacity, antialiased over one pixel.
func (c *canvas) fill(s shape, col rgb, opacity float64) {
	c.fillSoft(s, col, opacity, 1)
}

// fillSoft paints s with its edge blurred over soft pixels.
func (c *canvas) fillSoft(s shape, col rgb, opacity, soft float64) {
	c.each(s, soft, func(i int, a float64) {
		a *= opacity
		for k := 0; k < c.ch; k++ {
			c.pix[i+k] += a * (col[k] - c.pix[i+k])
		}
	})
}

// darken multiplies the pixels under s by 1 − amount·coverage: a shadow.
func (c *canvas) darken(s shape, amount, soft float64) {
	c.each(s, soft, func(i int, a float64) {
		f := 1 - amount*a
		for k := 0; k < c.ch; k++ {
			c.pix[i+k] *= f
		}
	})
}

// quantise maps a sample to 8 bits, rounding and clamping.
func quantise(v float64) uint8 {
	switch {
	case !(v > 0):
		return 0
	case v >= 1:
		return 255
	}
	return uint8(v*255 + 0.5)
}

// rgba quantises a colour canvas.
func (c *canvas) rgba() *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
	for i := 0; i < c.w*c.h; i++ {
		p := c.pix[i*c.ch : i*c.ch+c.ch]
		m.Pix[4*i], m.Pix[4*i+3] = quantise(p[0]), 255
		if c.ch == 3 {
			m.Pix[4*i+1], m.Pix[4*i+2] = quantise(p[1]), quantise(p[2])
		} else {
			m.Pix[4*i+1], m.Pix[4*i+2] = m.Pix[4*i], m.Pix[4*i]
		}
	}
	return m
}

// gray quantises a grey canvas.
func (c *canvas) gray() *image.Gray {
	m := image.NewGray(image.Rect(0, 0, c.w, c.h))
	for i := 0; i < c.w*c.h; i++ {
		m.Pix[i] = quantise(c.pix[i*c.ch])
	}
	return m
}

// nrgba quantises a colour canvas with a separate alpha plane (one value per pixel).
func (c *canvas) nrgba(alpha []float64) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, c.w, c.h))
	for i := 0; i < c.w*c.h; i++ {
		p := c.pix[i*c.ch : i*c.ch+c.ch]
		m.SetNRGBA(i%c.w, i/c.w, color.NRGBA{quantise(p[0]), quantise(p[1]), quantise(p[2]), quantise(alpha[i])})
	}
	return m
}
