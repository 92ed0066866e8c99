package imgproc

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"
	"runtime"

	"featurelab/internal/parallel"
)

// pngBand is the number of scanlines one task filters: a band is handed to the
// compressor as soon as it is done.
const pngBand = 16

// PNG's colour types and filter types (PNG specification, 11.2.2 and 9.2).
const (
	pngGrey      = 0
	pngRGB       = 2
	pngRGBA      = 6
	pngNone      = 0
	pngSub       = 1
	pngUp        = 2
	pngAverage   = 3
	pngPaeth     = 4
	pngFilters   = 5
	pngIDATBytes = 1 << 15
)

// scanlines is an 8-bit picture as PNG stores it: bpp bytes a pixel, a row at a time.
type scanlines struct {
	w, h, bpp int
	colour    byte
	row       func(y int, dst []byte) // the stored bytes of row y
}

// scanlinesOf gives the rows of the pictures Feature Lab draws and writes (NRGBA, opaque
// RGBA, Gray) in the colour type image/png chooses for them; ok is false for anything
// else, which image/png writes.
func scanlinesOf(img image.Image) (s scanlines, ok bool) {
	b := img.Bounds()
	s.w, s.h = b.Dx(), b.Dy()
	if s.w <= 0 || s.h <= 0 || int64(s.w) >= 1<<31 || int64(s.h) >= 1<<31 {
		return s, false
	}
	rgb := func(pix []byte, stride int) func(int, []byte) {
		return func(y int, dst []byte) {
			src := pix[y*stride : y*stride+4*s.w]
			for x := range s.w {
				copy(dst[3*x:3*x+3], src[4*x:4*x+3])
			}
		}
	}
	whole := func(pix []byte, stride int) func(int, []byte) {
		return func(y int, dst []byte) { copy(dst, pix[y*stride:y*stride+s.w*s.bpp]) }
	}
	switch m := img.(type) {
	case *image.NRGBA:
		pix := m.Pix[m.PixOffset(b.Min.X, b.Min.Y):]
		if m.Opaque() {
			s.bpp, s.colour, s.row = 3, pngRGB, rgb(pix, m.Stride)
		} else {
			s.bpp, s.colour, s.row = 4, pngRGBA, whole(pix, m.Stride)
		}
	case *image.RGBA:
		if !m.Opaque() {
			return s, false // image/png turns premultiplied alpha back; leave it that work
		}
		s.bpp, s.colour, s.row = 3, pngRGB, rgb(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride)
	case *image.Gray:
		s.bpp, s.colour = 1, pngGrey
		s.row = whole(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride)
	default:
		return s, false
	}
	return s, true
}

// writePNG writes s as image/png's Encoder at BestSpeed does, byte for byte (its chunks,
// its choice of filter for each row, its zlib stream), but with the rows filtered on
// all cores, a band at a time, while this goroutine compresses the bands in order:
// choosing each row's filter, by trying all five, is most of image/png's time and runs
// on one core (55 ms of a 1132 × 605 feature grid's 60 ms).
func writePNG(w io.Writer, s scanlines) error {
	stride := 1 + s.w*s.bpp
	filtered := make([]byte, s.h*stride)
	bands := (s.h + pngBand - 1) / pngBand
	done := make([]chan struct{}, bands)
	for i := range done {
		done[i] = make(chan struct{})
	}
	workers := runtime.GOMAXPROCS(0)
	type scratch struct {
		prev, cur []byte
		trial     [pngFilters][]byte
	}
	rows := make([]scratch, workers)
	go parallel.For(workers, bands, func(wk, band int) {
		sc := &rows[wk]
		if sc.cur == nil {
			sc.prev, sc.cur = make([]byte, s.w*s.bpp), make([]byte, s.w*s.bpp)
		}
		y0 := band * pngBand
		if y0 == 0 {
			clear(sc.prev) // the row above the first is zeros
		} else {
			s.row(y0-1, sc.prev)
		}
		for y := y0; y < min(y0+pngBand, s.h); y++ {
			s.row(y, sc.cur)
			filterRow(filtered[y*stride:(y+1)*stride], sc.cur, sc.prev, s.bpp, &sc.trial)
			sc.prev, sc.cur = sc.cur, sc.prev
		}
		close(done[band])
	})

	cw := &chunkWriter{w: w}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:4], uint32(s.w))
	binary.BigEndian.PutUint32(ihdr[4:8], uint32(s.h))
	ihdr[8], ihdr[9] = 8, s.colour // bit depth; compression, filter method and interlace 0
	if _, err := io.WriteString(w, pngSignature); err != nil {
		return err
	}
	cw.chunk("IHDR", ihdr[:])
	idat := bufio.NewWriterSize(idatWriter{cw}, pngIDATBytes)
	zw, err := zlib.NewWriterLevel(idat, zlib.BestSpeed)
	if err != nil {
		return err
	}
	for band := range bands {
		<-done[band]
		for y := band * pngBand; y < min((band+1)*pngBand, s.h); y++ {
			zw.Write(filtered[y*stride : (y+1)*stride])
		}
	}
	for _, err := range []error{zw.Close(), idat.Flush()} {
		if cw.err == nil && err != nil {
			cw.err = err
		}
	}
	cw.chunk("IEND", nil)
	return cw.err
}

// filterRow writes row cur (whose row above is prev, bpp bytes a pixel) to dst as PNG
// stores it: the filter type, then the row filtered. The filter is the one whose bytes,
// read as signed, have the least sum of magnitudes (libpng's heuristic), tried in
// image/png's order (Up, Paeth, None, Sub, Average) and kept only when strictly less,
// so that the choice is image/png's. Each filter after the first is given up as soon
// as its sum reaches the best so far. trial holds a scratch row per filter type.
func filterRow(dst, cur, prev []byte, bpp int, trial *[pngFilters][]byte) {
	n := len(cur)
	for k := range trial {
		if len(trial[k]) != n {
			trial[k] = make([]byte, n)
		}
	}
	t := trial[pngUp]
	best := 0
	for i := range n {
		t[i] = cur[i] - prev[i]
		best += abs8(t[i])
	}
	filter := pngUp

	t, sum := trial[pngPaeth], 0
	for i := 0; i < bpp; i++ {
		t[i] = cur[i] - prev[i]
		sum += abs8(t[i])
	}
	for i := bpp; i < n && sum < best; i++ {
		t[i] = cur[i] - paeth(cur[i-bpp], prev[i], prev[i-bpp])
		sum += abs8(t[i])
	}
	if sum < best {
		best, filter = sum, pngPaeth
	}

	sum = 0
	for i := 0; i < n && sum < best; i++ {
		sum += abs8(cur[i])
	}
	if sum < best {
		best, filter = sum, pngNone
	}

	t, sum = trial[pngSub], 0
	for i := 0; i < bpp; i++ {
		t[i] = cur[i]
		sum += abs8(t[i])
	}
	for i := bpp; i < n && sum < best; i++ {
		t[i] = cur[i] - cur[i-bpp]
		sum += abs8(t[i])
	}
	if sum < best {
		best, filter = sum, pngSub
	}

	t, sum = trial[pngAverage], 0
	for i := 0; i < bpp; i++ {
		t[i] = cur[i] - prev[i]/2
		sum += abs8(t[i])
	}
	for i := bpp; i < n && sum < best; i++ {
		t[i] = cur[i] - byte((int(cur[i-bpp])+int(prev[i]))/2)
		sum += abs8(t[i])
	}
	if sum < best {
		filter = pngAverage
	}

	dst[0] = byte(filter)
	if filter == pngNone {
		copy(dst[1:], cur)
	} else {
		copy(dst[1:], trial[filter])
	}
}

// paeth is PNG's Paeth predictor of a byte from the one to its left (a), above (b) and
// above left (c): whichever of the three is nearest a + b − c, a before b before c.
func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := absInt(p-int(a)), absInt(p-int(b)), absInt(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// abs8 is the magnitude of a byte read as a signed 8-bit number.
func abs8(d byte) int {
	if d < 128 {
		return int(d)
	}
	return 256 - int(d)
}

// chunkWriter writes PNG chunks to w, keeping the first error.
type chunkWriter struct {
	w   io.Writer
	err error
}

// chunk writes one chunk: its length, its type, data and the CRC of type and data.
func (c *chunkWriter) chunk(kind string, data []byte) {
	if c.err != nil {
		return
	}
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], kind)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, part := range [][]byte{head[:], data, tail[:]} {
		if _, err := c.w.Write(part); err != nil {
			c.err = err
			return
		}
	}
}

// idatWriter makes each write an IDAT chunk, as image/png's encoder does behind its
// 32 kB buffer.
type idatWriter struct{ c *chunkWriter }

func (i idatWriter) Write(p []byte) (int, error) {
	i.c.chunk("IDAT", p)
	if i.c.err != nil {
		return 0, i.c.err
	}
	return len(p), nil
}
