package imgproc

import "fmt"

// jpegFrame is what a JPEG's start-of-frame segment says of how it is coded, read by
// hand for the files image/jpeg refuses as "unsupported", so that the refusal names what
// is not supported and the arithmetic-coded ones can go to libjpeg-turbo instead.
type jpegFrame struct {
	marker        byte // SOFn: 0xC0–0xC3, 0xC5–0xC7, 0xC9–0xCB, 0xCD–0xCF
	precision     int  // bits a sample
	width, height int
	components    int
}

// readJPEGFrame finds the start-of-frame segment among the markers at the head of a
// JPEG; false when the bytes end before it or are not a JPEG's markers.
func readJPEGFrame(b []byte) (jpegFrame, bool) {
	if len(b) < 4 || b[0] != 0xff || b[1] != 0xd8 {
		return jpegFrame{}, false
	}
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xff {
			return jpegFrame{}, false
		}
		m := b[i+1]
		if m == 0xff { // fill byte before a marker
			i++
			continue
		}
		n := int(b[i+2])<<8 | int(b[i+3])
		isSOF := m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc
		if isSOF {
			if n < 8 || i+2+n > len(b) {
				return jpegFrame{}, false
			}
			s := b[i+4:]
			return jpegFrame{marker: m, precision: int(s[0]), height: int(s[1])<<8 | int(s[2]),
				width: int(s[3])<<8 | int(s[4]), components: int(s[5])}, true
		}
		if m == 0xda || m == 0xd9 || n < 2 {
			return jpegFrame{}, false // the scan or the end before any frame
		}
		i += 2 + n
	}
	return jpegFrame{}, false
}

// arithmetic reports an arithmetic-coded sequential or progressive frame of 8-bit
// samples: what libjpeg-turbo decodes and image/jpeg does not.
func (f jpegFrame) arithmetic() bool {
	return (f.marker == 0xc9 || f.marker == 0xca) && f.precision == 8
}

// unsupported says, for a user, what of the frame neither decoder here reads.
func (f jpegFrame) unsupported() string {
	var what string
	switch {
	case f.marker == 0xc3 || f.marker == 0xc7 || f.marker == 0xcb || f.marker == 0xcf:
		what = "lossless JPEG"
	case f.marker >= 0xc5 && f.marker <= 0xc7 || f.marker >= 0xcd:
		what = "hierarchical JPEG"
	case f.precision != 8:
		what = fmt.Sprintf("JPEG of %d-bit samples (only 8-bit JPEGs are read)", f.precision)
	default:
		what = fmt.Sprintf("JPEG coding (start of frame 0x%X)", f.marker)
	}
	return "unsupported: " + what + "; convert it to an 8-bit JPEG or a PNG"
}
