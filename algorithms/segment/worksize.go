package segment

// MaxWorkPixels is the largest number of pixels a segmenter reads an image at. A larger
// photo (a 12-megapixel camera frame) is shrunk by area averaging to fit
// (imgproc.ShrinkTo, as the folder loader shrinks to its budget), segmented, and
// its labels scaled back to every pixel of the original: its features alone would
// otherwise take 0.9 GB, and the defaults (cells of 16 pixels, 5×5 and 11×11 texture
// windows) were chosen on 481×321 photos, so a shrunk photo is read at the scale they fit.
const MaxWorkPixels = 1 << 20

// scaleLabels returns the w×h label map labels scaled to W×H by nearest neighbour: each
// pixel of the original takes the label of the work pixel it fell into.
func scaleLabels(labels []int32, w, h, W, H int) []int32 {
	out := make([]int32, W*H)
	cols := make([]int, W)
	for x := range cols {
		cols[x] = x * w / W
	}
	for y := 0; y < H; y++ {
		src := labels[(y*h/H)*w:]
		row := out[y*W : (y+1)*W]
		for x, c := range cols {
			row[x] = src[c]
		}
	}
	return out
}
