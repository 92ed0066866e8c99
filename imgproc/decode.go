package imgproc

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // register the decoders image.DecodeConfig sniffs for
	"image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"sync"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
)

// decoded is one file after the first pass: a picture, upright, or the reason it was skipped.
type decoded struct {
	name    string
	img     image.Image
	colour  bool
	skip    string
	reduced bool        // the picture was larger than the working size and was reduced on decoding
	upright image.Point // its size as stored, turned upright, before any reduction
}

// recorder passes reads through, keeping a copy of the bytes while keep is set, and
// remembers the first error that is not EOF.
type recorder struct {
	r    io.Reader
	keep bool
	buf  bytes.Buffer
	err  error
}

// maxHeaderBytes bounds what is read, and kept, before a picture's size is known: EXIF
// (64 kB at most), ICC profiles and XMP take a few megabytes; a header that runs on past
// this is padding meant to make the reader hold it (a JPEG of 300 MB of APP2 segments,
// a PGM whose comment is a gigabyte), or a TIFF whose directory sits at the end of a file
// this large.
const maxHeaderBytes = 64 << 20

// errHeaderTooLong stops a header read at maxHeaderBytes.
var errHeaderTooLong = errors.New("its header runs past 64 MB before saying the picture's size")

// readAll reads r to its end into a buffer of at least size bytes, the file's own, in
// place of io.ReadAll's doublings and copies (a camera JPEG of 2 MB took a dozen); a
// file that holds more than it said still reads whole. The buffer is one of bufs' where
// one is large enough; release hands it back once nothing reads data.
func readAll(r io.Reader, size int64, bufs *buffers) (data []byte, release func(), err error) {
	// Rounded up to a whole megabyte, so that the next photo of a camera, a little
	// larger, finds it large enough.
	const mb = 1 << 20
	b := bytes.NewBuffer(bufs.files.get(int((size + bytes.MinRead + mb - 1) / mb * mb))[:0])
	_, err = b.ReadFrom(r)
	data = b.Bytes()
	return data, func() { bufs.files.put(data) }, err
}

// buffers are the byte buffers one load reuses from file to file: the whole of a JPEG
// for libjpeg-turbo (2.3 MB for a camera photo), and the pixels it decodes a photo into
// before the photo is shrunk (750 kB). A new buffer each time left garbage of every
// file's size (120 MB for 40 camera photos), which the collector then cleared before the
// data matrix could use the memory. They are the load's own, garbage when it ends, so
// that they hold nothing through the stages after it.
type buffers struct {
	files, pixels bufferList
}

// bufferList is a list of free buffers, safe for concurrent use.
type bufferList struct {
	mu   sync.Mutex
	free [][]byte
}

// get is a buffer of n bytes, its contents whatever they were: a free one large enough,
// else a new one.
func (l *bufferList) get(n int) []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, buf := range l.free {
		if cap(buf) >= n {
			l.free = append(l.free[:i], l.free[i+1:]...)
			return buf[:n]
		}
	}
	return make([]byte, n)
}

// put hands buf back for the next get.
func (l *bufferList) put(buf []byte) {
	l.mu.Lock()
	l.free = append(l.free, buf[:0])
	l.mu.Unlock()
}

// releasePixels hands the pixels of a picture decoded at a reduced scale back to b,
// once shrinking it has made the picture that is kept.
func (b *buffers) releasePixels(img image.Image) {
	switch img := img.(type) {
	case *image.NRGBA:
		b.pixels.put(img.Pix)
	case *image.Gray:
		b.pixels.put(img.Pix)
	}
}

func (rec *recorder) Read(p []byte) (int, error) {
	if rec.keep && rec.buf.Len() >= maxHeaderBytes {
		rec.err = errHeaderTooLong
		return 0, errHeaderTooLong
	}
	if rec.keep {
		p = p[:min(len(p), maxHeaderBytes-rec.buf.Len())]
	}
	n, err := rec.r.Read(p)
	if rec.keep {
		rec.buf.Write(p[:n])
	}
	if err != nil && err != io.EOF && rec.err == nil {
		rec.err = err
	}
	return n, err
}

// decodeFile reads one file and decodes it if it is a usable image; otherwise it says why
// not in skip. The header is read first, so a file over the pixel budget is rejected
// before any pixel memory is allocated, and a large file that is not an image costs only
// the few bytes needed to tell. A decoder that panics on hostile input becomes a skip too.
//
// bufs lends the buffers a JPEG is read and decoded into.
//
// reduce, when not nil, gives the size an upright picture of a given size is to be kept
// at; a larger picture is reduced to it at once, before it is turned upright, so that the
// full-size picture is garbage as soon as this returns.
func decodeFile(fsys fs.FS, full, name string, budget int64, reduce func(image.Point) image.Point, bufs *buffers) (d decoded) {
	d.name = name
	defer func() {
		if r := recover(); r != nil {
			d.img, d.skip = nil, fmt.Sprintf("corrupt image (the decoder failed: %v)", r)
		}
	}()
	f, err := fsys.Open(full)
	if err != nil {
		d.skip = "unreadable: " + errText(err)
		return d
	}
	defer f.Close()
	var size int64 // what the file says it holds, to read it into one buffer
	if st, err := f.Stat(); err == nil && st.Size() > maxFileBytes(budget) {
		// No picture within the budget needs this many bytes; reading them to find out
		// would cost what the file claims (a sparse file of a gigabyte costs nothing on disk).
		d.skip = fmt.Sprintf("a file of %d MB, more than a picture within the %s budget can need (%d MB)",
			st.Size()>>20, megapixels(budget), maxFileBytes(budget)>>20)
		return d
	} else if err == nil {
		size = st.Size()
	}

	rec := &recorder{r: f, keep: true}
	cfg, format, err := image.DecodeConfig(rec)
	arithmetic := false
	if _, ok := err.(jpeg.UnsupportedError); ok && rec.err == nil {
		// image/jpeg reads baseline and progressive Huffman-coded 8-bit JPEGs only. Say
		// what else this one is, or hand an arithmetic-coded one to libjpeg-turbo.
		frame, found := readJPEGFrame(rec.buf.Bytes())
		if !found {
			// image/jpeg stopped at the frame marker; the rest of its segment may be unread.
			io.CopyN(io.Discard, rec, 64<<10)
			frame, found = readJPEGFrame(rec.buf.Bytes())
		}
		switch {
		case found && frame.arithmetic():
			cfg, format, err, arithmetic = image.Config{Width: frame.width, Height: frame.height}, "jpeg", nil, true
		case found:
			d.skip = frame.unsupported()
			return d
		}
	}
	switch {
	case rec.err != nil:
		d.skip = "unreadable: " + errText(rec.err)
		return d
	case err != nil && rec.buf.Len() == 0:
		d.skip = "empty file"
		return d
	case errors.Is(err, image.ErrFormat):
		d.skip = "not an image"
		return d
	case err != nil:
		d.skip = fmt.Sprintf("corrupt %s: %v", formatName(rec.buf.Bytes()), err)
		return d
	case cfg.Width <= 0 || cfg.Height <= 0:
		d.skip = fmt.Sprintf("empty %s image (%d×%d pixels)", format, cfg.Width, cfg.Height)
		return d
	}
	if format == "png" && isOwnPNG(rec.buf.Bytes()) {
		d.skip = "written by Feature Lab (an export), not one of the images"
		return d
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > budget {
		d.skip = fmt.Sprintf("%d×%d pixels exceeds the %s budget", cfg.Width, cfg.Height, megapixels(budget))
		return d
	}
	orientation := 1
	if format == "jpeg" {
		orientation = jpegOrientation(rec.buf.Bytes())
	}
	d.upright = orientedSize(cfg.Width, cfg.Height, orientation)

	// A JPEG larger than the working size is decoded already reduced, in the DCT domain,
	// when libjpeg-turbo can; anything else, or a JPEG it cannot decode cleanly, is
	// decoded in full by Go's decoders from the whole stream: the bytes already read,
	// then the rest of the file.
	var img image.Image
	pooled := false // img's pixels are one of bufs' (libjpeg-turbo decoded it)
	rec.keep = false
	var stream io.Reader = io.MultiReader(bytes.NewReader(rec.buf.Bytes()), rec)
	if arithmetic {
		// libjpeg-turbo decodes it, reduced if the working size asks; image/jpeg cannot.
		data, release, rerr := readAll(stream, size, bufs)
		defer release()
		if rerr != nil || rec.err != nil {
			d.skip = "unreadable: " + errText(cmp.Or(rec.err, rerr))
			return d
		}
		to := image.Pt(cfg.Width, cfg.Height)
		if reduce != nil {
			to = orientedSize(cfg.Width, cfg.Height, orientation)
			to = reduce(to)
			to = orientedSize(to.X, to.Y, orientation)
		}
		if img, err = decodeJPEGReduced(data, image.Pt(cfg.Width, cfg.Height), to, bufs); err != nil {
			what := "corrupt arithmetic-coded jpeg"
			if errors.Is(err, errNoTurboJPEG) {
				what = "arithmetic-coded jpeg"
			}
			d.skip = fmt.Sprintf("%s: %v", what, err)
			return d
		}
		pooled = true
	}
	if format == "jpeg" && reduce != nil && img == nil {
		up := orientedSize(cfg.Width, cfg.Height, orientation)
		if to := reduce(up); to != up {
			data, release, rerr := readAll(stream, size, bufs)
			defer release() // after image/jpeg too, which reads data when libjpeg-turbo cannot
			if rerr != nil || rec.err != nil {
				d.skip = "unreadable: " + errText(cmp.Or(rec.err, rerr))
				return d
			}
			stream = bytes.NewReader(data)
			img, _ = decodeJPEGReduced(data, image.Pt(cfg.Width, cfg.Height), orientedSize(to.X, to.Y, orientation), bufs)
			pooled = img != nil
		}
	}
	if img == nil {
		img, _, err = image.Decode(stream)
	}
	switch {
	case rec.err != nil:
		d.skip = "unreadable: " + errText(rec.err)
		return d
	case err != nil:
		d.skip = fmt.Sprintf("corrupt %s: %v", format, err)
		return d
	case img.Bounds().Empty():
		d.skip = fmt.Sprintf("empty %s image", format)
		return d
	}
	if reduce != nil {
		size := img.Bounds().Size()
		up := orientedSize(size.X, size.Y, orientation)
		if to := reduce(up); to != up {
			// The stored picture is reduced, then turned: the turn copies the small one.
			stored := orientedSize(to.X, to.Y, orientation)
			decodedAt := img
			img = shrink(img, stored.X, stored.Y)
			if pooled {
				// Only bufs' own go back: a large PNG's, which the next libjpeg-turbo
				// decode seldom fits, would pile up there until the load ends.
				bufs.releasePixels(decodedAt)
			}
		}
	}
	d.img = applyOrientation(img, orientation)
	// Reduced however it was: by the box filter, or by libjpeg-turbo's DCT scaling alone
	// when a scale of n/8 fell exactly on the working size.
	d.reduced = d.img.Bounds().Size() != d.upright
	d.colour = isColour(d.img)
	return d
}

// errNoTurboJPEG is decodeJPEGReduced's error in the builds without libjpeg-turbo
// (purejpeg.go): the JPEG goes to image/jpeg instead, unless it is arithmetic-coded.
var errNoTurboJPEG = errors.New("this build has no libjpeg-turbo to decode it (pure Go)")

// PictureExtensions are the file extensions of the formats read here, for file choosers
// that list pictures only (reading itself goes by the content, not the name).
var PictureExtensions = []string{".jpg", ".jpeg", ".png", ".gif", ".bmp", ".tif", ".tiff", ".webp",
	".pbm", ".pgm", ".ppm", ".pnm", ".pfm"}

// maxFileBytes is the largest file a picture of at most budget pixels can need: 16 bytes
// a pixel (four channels of 32-bit floats, the widest a decoder here reads, stored
// uncompressed) and maxHeaderBytes of metadata.
func maxFileBytes(budget int64) int64 { return 16*budget + maxHeaderBytes }

// formatName names the image format a file's first bytes announce, for skip reasons
// when even its header cannot be decoded. The names are image.RegisterFormat's.
func formatName(head []byte) string {
	h := string(head[:min(len(head), 12)])
	switch {
	case strings.HasPrefix(h, "\xff\xd8"):
		return "jpeg"
	case strings.HasPrefix(h, "\x89PNG"):
		return "png"
	case strings.HasPrefix(h, "GIF8"):
		return "gif"
	case strings.HasPrefix(h, "BM"):
		return "bmp"
	case strings.HasPrefix(h, "II*\x00"), strings.HasPrefix(h, "MM\x00*"):
		return "tiff"
	case strings.HasPrefix(h, "RIFF") && len(h) >= 12 && h[8:12] == "WEBP":
		return "webp"
	case strings.HasPrefix(h, "PF"), strings.HasPrefix(h, "Pf"):
		return "pfm"
	case len(h) >= 2 && h[0] == 'P' && h[1] >= '1' && h[1] <= '6':
		return "pnm"
	}
	return "image"
}

// megapixels formats a pixel budget: 50000000 → "50 MP".
func megapixels(px int64) string {
	return strconv.FormatFloat(float64(px)/1e6, 'g', 4, 64) + " MP"
}

// errText drops the path an *fs.PathError repeats; the skip already names the file.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
