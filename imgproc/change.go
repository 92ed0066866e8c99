package imgproc

// Change is a change to a picture — a feature's picture, added to a base — prepared for
// Picture.HoldsChange: where it acts (changedRegion), the band along that region's
// outline and the inner pixels where Structure and Shade look, and its own blurs there.
// All of that depends on the change alone, not on the base it is added to, and the
// blurs are linear, so a base changed (another feature flipped into it) is compared
// again with the base's blurs and these, without blurring the sum.
type Change struct {
	w, h, c int
	delta   []float64 // the change itself, kept (Negate when the caller turns it over)
	ok      bool      // false when it changes nothing
	// band is the band's pixels that have a right and a lower neighbour: the others'
	// edges count 0 in every picture.
	band []int32
	// bandSmooth is, per band pixel and channel, the blur of radius structureScale of
	// delta at the pixel, at its right neighbour and at its lower one.
	bandSmooth []float64
	inner      []int32 // the pixels Shade reads
	// innerTexture is, per inner pixel and channel, delta minus its blur of radius
	// shadeScale.
	innerTexture []float64
	// reads is where a comparison reads a picture's measures: the band grown by a pixel
	// (it reads each band pixel's right and lower neighbours), which holds the inner
	// pixels.
	reads rect
}

// NewChange prepares delta, a change to W×H×C pictures (pixel-interleaved), for
// comparisons with HoldsChange; nil when it does not fit such a picture. delta is kept,
// not copied. The change's own measures are made in scratch, a Picture (new(Picture)
// will do) whose buffers the next change of one goroutine reuses: a reading prepares a
// change per feature, each 4 + 2C values a pixel (6 MB at 320 × 240 in colour); nil
// allocates them.
func NewChange(delta []float64, w, h, c int, scratch *Picture) *Change {
	if len(delta) != w*h*c || w < 2 || h < 2 || c < 1 {
		return nil
	}
	ch := &Change{w: w, h: h, c: c, delta: delta}
	kept, ok := changedRegion(nil, delta, w, h, c)
	if !ok {
		return ch
	}
	ch.ok = true
	in := bounds(kept, w, h)
	d := scratch
	if d == nil {
		d = new(Picture)
	}
	if d.w != w || d.h != h || d.c != c {
		*d = Picture{w: w, h: h, c: c}
	}
	d.samples = delta
	d.Changed()
	// The band and the inner region, as structureIn and shadeIn find them; a band pixel
	// in the last row or column has no edges to compare in any picture.
	band, pixels := bandOf(kept, in, w, h)
	for _, q := range pixels {
		if x, y := int(q)%w, int(q)/w; x < w-1 && y < h-1 {
			ch.band = append(ch.band, q)
		}
	}
	var inner rect
	inner, ch.inner = innerOf(kept, in, w, h)
	ch.reads = band.grown(1, w, h)
	d.ensure(ch.reads)
	d.ensure(inner)
	ch.bandSmooth = make([]float64, 0, 3*c*len(ch.band))
	for _, q := range ch.band {
		for _, r := range [3]int{int(q), int(q) + 1, int(q) + w} {
			ch.bandSmooth = append(ch.bandSmooth, d.smooth[r*c:(r+1)*c]...)
		}
	}
	ch.innerTexture = make([]float64, 0, c*len(ch.inner))
	for _, q := range ch.inner {
		ch.innerTexture = append(ch.innerTexture, d.texture[int(q)*c:(int(q)+1)*c]...)
	}
	return ch
}

// Negate makes ch the change the other way, after its caller has turned delta over
// (each value negated): the region is the same, its blurs change sign.
func (ch *Change) Negate() {
	for i := range ch.bandSmooth {
		ch.bandSmooth[i] = -ch.bandSmooth[i]
	}
	for i := range ch.innerTexture {
		ch.innerTexture[i] = -ch.innerTexture[i]
	}
}

// PrepareFor makes p's measures where comparisons with the changes read them, and only
// there (Prepare makes them everywhere): a base compared with each feature of a fit, where
// the features act on a part of the picture.
func (p *Picture) PrepareFor(changes []*Change, workers int) {
	var r rect
	for _, ch := range changes {
		if ch == nil || !ch.ok || ch.reads.empty() {
			continue
		}
		if r.empty() {
			r = ch.reads
			continue
		}
		r = rect{min(r.x0, ch.reads.x0), min(r.y0, ch.reads.y0), max(r.x1, ch.reads.x1), max(r.y1, ch.reads.y1)}
	}
	p.ensureOn(r, workers)
}

// HoldsChange is Holds(p, p + ch): how much more the picture with the change holds an
// object than p, to rounding. Several goroutines may compare one Picture once it is
// prepared for their changes (Prepare, PrepareFor); 0 when the sizes differ or the
// change changes nothing.
func (p *Picture) HoldsChange(ch *Change) float64 {
	if p == nil || ch == nil || p.w != ch.w || p.h != ch.h || p.c != ch.c || !ch.ok {
		return 0
	}
	p.ensure(ch.reads)
	w, c := p.w, p.c
	var sWithout, sWith float64
	for i, q := range ch.band {
		q := int(q)
		sWithout += p.edges[q]
		smooth := ch.bandSmooth[3*c*i : 3*c*(i+1)]
		e, e1 := 0.0, 0.0
		for k := 0; k < c; k++ {
			v := p.samples[q*c+k] + ch.delta[q*c+k]
			dx := p.samples[(q+1)*c+k] + ch.delta[(q+1)*c+k] - v
			dy := p.samples[(q+w)*c+k] + ch.delta[(q+w)*c+k] - v
			e += dx*dx + dy*dy
			s := p.smooth[q*c+k] + smooth[k]
			sx := p.smooth[(q+1)*c+k] + smooth[c+k] - s
			sy := p.smooth[(q+w)*c+k] + smooth[2*c+k] - s
			e1 += sx*sx + sy*sy
		}
		sWith += e + structureWeight*e1
	}
	score, ok := outline(sWithout, sWith)
	if !ok {
		return score
	}
	var ab, aa, bb, sa, sb float64
	for i, q := range ch.inner {
		for k := 0; k < c; k++ {
			j := int(q)*c + k
			a := p.texture[j]
			b := a + ch.innerTexture[i*c+k]
			ab += a * b
			aa += a * a
			bb += b * b
			sa += p.samples[j]
			sb += p.samples[j] + ch.delta[j]
		}
	}
	texture, textureGain, meanGain := shadeFigures(ab, aa, bb, sa, sb)
	return shaded(score, texture, textureGain, meanGain)
}
