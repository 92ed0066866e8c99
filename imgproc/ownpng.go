package imgproc

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"io"
)

// ownMark is the PNG text chunk (keyword "Software", PNG spec §11.3.4) that Feature Lab
// writes into the pictures it saves: a feature grid, segment maps, plots. A user who
// saves an export into the folder of the images would otherwise find it among them at
// the next load, analysed as one more photo.
const ownMark = "Software\x00Feature Lab"

// EncodePNG writes img as a PNG marked as Feature Lab's own (see ownMark), which Load
// skips. It compresses at png.BestSpeed: at the default level a camera photo's
// boundaries.png takes several times as long to write, as long as much of its
// segmentation, for a file only somewhat smaller (BenchmarkEncodePNGCamera). The
// pictures Feature Lab draws are written by writePNG, the same bytes on all cores.
func EncodePNG(w io.Writer, img image.Image) error {
	var buf bytes.Buffer
	if s, ok := scanlinesOf(img); ok {
		if err := writePNG(&buf, s); err != nil {
			return err
		}
	} else if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return err
	}
	return MarkPNG(w, buf.Bytes())
}

// MarkPNG writes the PNG stream data to w with the mark added right after its header
// chunk, where the loader's first read finds it.
func MarkPNG(w io.Writer, data []byte) error {
	const ihdrEnd = 8 + 8 + 13 + 4 // signature, IHDR's length and type, its data, its CRC
	if len(data) < ihdrEnd || !bytes.HasPrefix(data, []byte(pngSignature)) {
		_, err := w.Write(data) // not a PNG we made: leave it be
		return err
	}
	chunk := make([]byte, 0, 12+len(ownMark))
	chunk = binary.BigEndian.AppendUint32(chunk, uint32(len(ownMark)))
	chunk = append(chunk, "tEXt"+ownMark...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	for _, part := range [][]byte{data[:ihdrEnd], chunk, data[ihdrEnd:]} {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

const pngSignature = "\x89PNG\r\n\x1a\n"

// isOwnPNG reports whether the first bytes of a PNG carry Feature Lab's mark.
func isOwnPNG(head []byte) bool {
	const ihdrEnd = 8 + 8 + 13 + 4
	if len(head) < ihdrEnd+8 {
		return false
	}
	return bytes.HasPrefix(head[ihdrEnd+4:], []byte("tEXt"+ownMark))
}

// IsOwnPNG reports whether r reads a PNG Feature Lab wrote (EncodePNG): a picture a later
// export may replace, where a user's own picture of the same name must be kept.
func IsOwnPNG(r io.Reader) bool {
	const ihdrEnd = 8 + 8 + 13 + 4
	head := make([]byte, ihdrEnd+8+len(ownMark))
	n, _ := io.ReadFull(r, head)
	return bytes.HasPrefix(head, []byte(pngSignature)) && isOwnPNG(head[:n])
}
