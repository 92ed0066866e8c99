package imgproc

import (
	"encoding/binary"
	"image"

	"github.com/disintegration/imaging"
)

// jpegOrientation reads the EXIF orientation tag (1…8) from the start of a JPEG file, or
// returns 1 when there is none or the data is malformed. header must reach past the APP1
// segment; image.DecodeConfig reads up to the frame header, which comes after it.
// Parsing it here, rather than in imaging.Decode, tells the loader an image's displayed
// size before it is decoded and costs no goroutine per file.
func jpegOrientation(header []byte) int {
	b := header
	if len(b) < 4 || b[0] != 0xff || b[1] != 0xd8 {
		return 1
	}
	b = b[2:]
	for len(b) >= 4 && b[0] == 0xff {
		marker := b[1]
		if marker == 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0xff {
			b = b[1:] // fill byte or standalone marker
			continue
		}
		if marker == 0xda || marker == 0xd9 { // start of scan or end: no EXIF before it
			return 1
		}
		n := int(binary.BigEndian.Uint16(b[2:]))
		if n < 2 || 2+n > len(b) {
			return 1
		}
		seg := b[4 : 2+n]
		if marker == 0xe1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			if o := tiffOrientation(seg[6:]); o != 0 {
				return o
			}
		}
		b = b[2+n:]
	}
	return 1
}

// tiffOrientation finds tag 0x0112 in IFD0 of a TIFF structure; 0 if absent or invalid.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var order binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return 0
	}
	if order.Uint16(t[2:]) != 42 {
		return 0
	}
	off := int64(order.Uint32(t[4:]))
	if off < 8 || off+2 > int64(len(t)) {
		return 0
	}
	count := int64(order.Uint16(t[off:]))
	for i := int64(0); i < count; i++ {
		e := off + 2 + 12*i
		if e+12 > int64(len(t)) {
			return 0
		}
		if order.Uint16(t[e:]) != 0x0112 {
			continue
		}
		if order.Uint16(t[e+2:]) != 3 { // SHORT
			return 0
		}
		if v := int(order.Uint16(t[e+8:])); v >= 1 && v <= 8 {
			return v
		}
		return 0
	}
	return 0
}

// orientedSize is the displayed size of a w×h picture with EXIF orientation o: the values
// 5…8 turn it a quarter.
func orientedSize(w, h, o int) image.Point {
	if o >= 5 && o <= 8 {
		return image.Pt(h, w)
	}
	return image.Pt(w, h)
}

// applyOrientation turns img upright according to EXIF orientation o (TIFF 6.0 / EXIF 2.3
// tag 274: the row-0/column-0 position of the stored picture).
func applyOrientation(img image.Image, o int) image.Image {
	switch o {
	case 2:
		return imaging.FlipH(img)
	case 3:
		return imaging.Rotate180(img)
	case 4:
		return imaging.FlipV(img)
	case 5:
		return imaging.Transpose(img)
	case 6:
		return imaging.Rotate270(img)
	case 7:
		return imaging.Transverse(img)
	case 8:
		return imaging.Rotate90(img)
	}
	return img
}
