package imgproc

import "featurelab/internal/parallel"

// Picture is one picture prepared for Holds, Structure and Shade: what every comparison
// with another picture reads of it alone, made once and only where a comparison looks.
// Reading a learned fit compares one base with each of its features, round after round
// (algorithms/selection's orient); the base's blurs, made again for every pair, would be
// most of that work, and a feature's blurs away from where it acts the rest.
type Picture struct {
	w, h, c int
	samples []float64 // the picture itself, not copied
	// edges is, per pixel, what Structure sums over its band: the squared differences to
	// the right and downward neighbours over the channels, at single pixels plus
	// structureWeight times after a box blur of radius structureScale.
	edges []float64
	// texture is, per sample, the picture minus its box blur of radius shadeScale (Shade).
	texture []float64
	// smooth is, per sample, the box blur of radius structureScale, made with the edges
	// and kept for comparisons with a Change.
	smooth []float64
	// done is the rectangle, [x0, x1) × [y0, y1), where edges and texture are made.
	done rect
	// planes is room for one channel's plane and its blurs while they are made, for
	// each band of rows made at once.
	planes []float64
}

// rect is a rectangle of pixels, [x0, x1) × [y0, y1).
type rect struct{ x0, y0, x1, y1 int }

func (r rect) empty() bool { return r.x0 >= r.x1 || r.y0 >= r.y1 }

// contains reports whether s lies within r.
func (r rect) contains(s rect) bool {
	return s.empty() || r.x0 <= s.x0 && r.y0 <= s.y0 && s.x1 <= r.x1 && s.y1 <= r.y1
}

// grown is r grown by m pixels on every side, within a w×h picture.
func (r rect) grown(m, w, h int) rect {
	return rect{max(r.x0-m, 0), max(r.y0-m, 0), min(r.x1+m, w), min(r.y1+m, h)}
}

// NewPicture prepares the W×H×C picture samples (pixel-interleaved) for comparisons; nil
// when the samples do not make such a picture or it is smaller than 2 × 2. The samples
// are kept, not copied: they must not change while the Picture is used. Its measures are
// made as comparisons need them: call Prepare before comparing one Picture from several
// goroutines.
func NewPicture(samples []float64, w, h, c int) *Picture {
	if len(samples) != w*h*c || w < 2 || h < 2 || c < 1 {
		return nil
	}
	return &Picture{w: w, h: h, c: c, samples: samples}
}

// Prepare makes the picture's measures everywhere, on up to workers goroutines, so that
// comparisons only read it.
func (p *Picture) Prepare(workers int) { p.ensureOn(rect{0, 0, p.w, p.h}, workers) }

// Changed tells p that its samples have changed: its measures are made again, in the
// buffers they were made in.
func (p *Picture) Changed() { p.done = rect{} }

func (p *Picture) sameSize(o *Picture) bool {
	return p != nil && o != nil && p.w == o.w && p.h == o.h && p.c == o.c
}

// Reach of the measures: an edge at a pixel reads the blur of radius structureScale at
// it and its right and lower neighbours, a texture the blur of radius shadeScale.
const measureReach = max(structureScale+1, shadeScale)

// ensure makes the measures at every pixel of r (and, when they were made elsewhere
// before, over the smallest rectangle holding both).
func (p *Picture) ensure(r rect) { p.ensureOn(r, 1) }

// bandRows is the fewest rows of a picture that ensureOn gives a goroutine: a band
// blurs the few rows around it again (measureReach), and a goroutine woken for less
// than that costs more than it saves.
const bandRows = 32

// ensureOn is ensure on up to workers goroutines, each measuring a band of r's rows
// from the samples around it: every pixel's value is the same sum as on one goroutine,
// so the measures do not depend on workers. A base read against every feature of a fit
// (PrepareFor) is measured while the other cores would wait for it.
func (p *Picture) ensureOn(r rect, workers int) {
	if p.done.contains(r) || r.empty() {
		return
	}
	if p.edges == nil {
		p.edges = make([]float64, p.w*p.h)
		p.texture = make([]float64, p.w*p.h*p.c)
		p.smooth = make([]float64, p.w*p.h*p.c)
	} else if !p.done.empty() {
		r = rect{min(r.x0, p.done.x0), min(r.y0, p.done.y0), max(r.x1, p.done.x1), max(r.y1, p.done.y1)}
	}
	clear(p.edges)
	wh := p.w * p.h
	bands := max(1, min(workers, (r.y1-r.y0)/bandRows))
	if len(p.planes) < 3*wh*bands {
		p.planes = make([]float64, 3*wh*bands)
	}
	// smooth is kept one pixel around r (a Change's comparisons read it there); each
	// band keeps its own rows of that, the first and the last band the rows beyond r.
	kept := r.grown(1, p.w, p.h)
	parallel.For(bands, bands, func(_, b int) {
		band := rect{r.x0, r.y0 + (r.y1-r.y0)*b/bands, r.x1, r.y0 + (r.y1-r.y0)*(b+1)/bands}
		keep := rect{kept.x0, band.y0, kept.x1, band.y1}
		if b == 0 {
			keep.y0 = kept.y0
		}
		if b == bands-1 {
			keep.y1 = kept.y1
		}
		planes := p.planes[3*wh*b : 3*wh*(b+1)]
		p.measure(band, keep, planes[:wh], planes[wh:2*wh], planes[2*wh:])
	})
	p.done = r
}

// measure makes the edges and the texture at every pixel of r, and the blur of radius
// structureScale at those of keep (within r grown by a pixel), in the w×h planes given
// as room, one channel at a time.
func (p *Picture) measure(r, keep rect, plane, smooth, scratch []float64) {
	w, h, c := p.w, p.h, p.c
	// The samples the measures in r read.
	src := r.grown(measureReach, w, h)
	for ch := 0; ch < c; ch++ {
		for y := src.y0; y < src.y1; y++ {
			for x := src.x0; x < src.x1; x++ {
				q := y*w + x
				plane[q] = p.samples[q*c+ch]
			}
		}
		addEdges(p.edges, plane, w, h, 1, r)
		boxBlurIn(smooth, scratch, plane, w, h, structureScale, r.grown(1, w, h))
		addEdges(p.edges, smooth, w, h, structureWeight, r)
		for y := keep.y0; y < keep.y1; y++ {
			for x := keep.x0; x < keep.x1; x++ {
				q := y*w + x
				p.smooth[q*c+ch] = smooth[q]
			}
		}
		boxBlurIn(smooth, scratch, plane, w, h, shadeScale, r)
		for y := r.y0; y < r.y1; y++ {
			for x := r.x0; x < r.x1; x++ {
				q := y*w + x
				p.texture[q*c+ch] = plane[q] - smooth[q]
			}
		}
	}
}

// addEdges adds weight times the squared differences of v (a w×h plane) to the right and
// downward neighbours to dst, at every pixel of r that has both.
func addEdges(dst, v []float64, w, h int, weight float64, r rect) {
	for y := r.y0; y < min(r.y1, h-1); y++ {
		for x := r.x0; x < min(r.x1, w-1); x++ {
			q := y*w + x
			dx, dy := v[q+1]-v[q], v[q+w]-v[q]
			dst[q] += weight * (dx*dx + dy*dy)
		}
	}
}

// boxBlurIn sets dst, at the pixels of r, to the mean of the (2r+1)² values of v around
// each, clamped at the edges of the w×h grid: the sums along rows (into scratch), then
// along columns. It reads v within radius of r.
func boxBlurIn(dst, scratch, v []float64, w, h, radius int, r rect) {
	rows := rect{r.x0, max(r.y0-radius, 0), r.x1, min(r.y1+radius, h)}
	for y := rows.y0; y < rows.y1; y++ {
		for x := rows.x0; x < rows.x1; x++ {
			s := 0.0
			for _, u := range v[y*w+max(x-radius, 0) : y*w+min(x+radius+1, w)] {
				s += u
			}
			scratch[y*w+x] = s
		}
	}
	for y := r.y0; y < r.y1; y++ {
		y0, y1 := max(y-radius, 0), min(y+radius+1, h)
		for x := r.x0; x < r.x1; x++ {
			s := 0.0
			for yy := y0; yy < y1; yy++ {
				s += scratch[yy*w+x]
			}
			n := (min(x+radius+1, w) - max(x-radius, 0)) * (y1 - y0)
			dst[y*w+x] = s / float64(n)
		}
	}
}

// boxBlur is the mean of the (2r+1)² values around each of a w×h grid's, clamped at the
// edges, into a new slice.
func boxBlur(v []float64, w, h, r int) []float64 {
	out := make([]float64, len(v))
	boxBlurIn(out, make([]float64, len(v)), v, w, h, r, rect{0, 0, w, h})
	return out
}

// windowCounts is, per pixel of r in a w×h grid, how many of the marked pixels lie
// within radius of it (a square, clamped at the edges): integer sums along rows, then
// along columns, each window's sum the last one's with one value in and one out. Pixels
// outside r are left 0.
func windowCounts(in []bool, w, h, radius int, r rect) []int32 {
	rows := make([]int32, w*h)
	for y := max(r.y0-radius, 0); y < min(r.y1+radius, h); y++ {
		line := in[y*w : (y+1)*w]
		var run int32
		for x := max(r.x0-radius, 0); x <= min(r.x0+radius, w-1); x++ {
			if line[x] {
				run++
			}
		}
		for x := r.x0; x < r.x1; x++ {
			if x > r.x0 {
				if x+radius < w && line[x+radius] {
					run++
				}
				if x-radius-1 >= 0 && line[x-radius-1] {
					run--
				}
			}
			rows[y*w+x] = run
		}
	}
	out := make([]int32, w*h)
	for x := r.x0; x < r.x1; x++ {
		var run int32
		for y := max(r.y0-radius, 0); y <= min(r.y0+radius, h-1); y++ {
			run += rows[y*w+x]
		}
		for y := r.y0; y < r.y1; y++ {
			if y > r.y0 {
				if y+radius < h {
					run += rows[(y+radius)*w+x]
				}
				if y-radius-1 >= 0 {
					run -= rows[(y-radius-1)*w+x]
				}
			}
			out[y*w+x] = run
		}
	}
	return out
}

// windowSize is how many pixels of a w×h grid lie within r of (x, y), a square clamped
// at the edges.
func windowSize(x, y, w, h, r int) int32 {
	return int32((min(x+r, w-1) - max(x-r, 0) + 1) * (min(y+r, h-1) - max(y-r, 0) + 1))
}

// bounds is the smallest rectangle holding every marked pixel of a w×h grid.
func bounds(in []bool, w, h int) rect {
	b := rect{w, h, 0, 0}
	for y := 0; y < h; y++ {
		for x, v := range in[y*w : (y+1)*w] {
			if v {
				b.x0, b.x1 = min(b.x0, x), max(b.x1, x+1)
				b.y0, b.y1 = min(b.y0, y), max(b.y1, y+1)
			}
		}
	}
	return b
}
