package imgproc

import (
	"fmt"
	"math"
)

// ColorHistogram sets h to the normalised histogram of one image row — values in [0, 1],
// pixel-interleaved (RGBRGB… for channels = 3, grey for channels = 1) — the data of KL
// DP-means (Jiang, Kulis & Jordan 2012, §5). Colour images get the joint histogram over
// bins³ cells, cell (r·bins + g)·bins + b, the usual colour histogram of image retrieval:
// it keeps which colours occur, where per-channel marginals would not. A value v falls in
// bin min(⌊v·bins⌋, bins−1), values outside [0, 1] in the end bins. h must have
// HistogramCells(channels, bins) entries; it sums to 1. bins may be at most 256 for grey
// and 32 for colour. It lives with the other image descriptions (GradientDescriptors), not
// with the learners that cluster its output.
func ColorHistogram(row []float32, channels, bins int, h []float64) error {
	if len(row) == 0 {
		return fmt.Errorf("color histogram: no pixels")
	}
	cells, err := HistogramCells(channels, bins)
	if err != nil {
		return err
	}
	p := len(row)
	if p%channels != 0 {
		return fmt.Errorf("color histogram: %d values is not a whole number of %d-channel pixels", p, channels)
	}
	if len(h) != cells {
		return fmt.Errorf("color histogram: h has %d entries, want %d", len(h), cells)
	}
	clear(h)
	inv := 1 / float64(p/channels)
	for j := 0; j < p; j += channels {
		cell := 0
		for c := 0; c < channels; c++ {
			v := float64(row[j+c])
			if math.IsNaN(v) {
				return fmt.Errorf("color histogram: NaN at value %d", j+c)
			}
			bin := int(min(max(v, 0), 1) * float64(bins))
			cell = cell*bins + min(bin, bins-1)
		}
		h[cell]++
	}
	for j := range h {
		h[j] *= inv
	}
	return nil
}

// HistogramCells is the length of ColorHistogram's output, bins for grey and bins³ for
// colour, or an error for channels or bins it does not take.
func HistogramCells(channels, bins int) (int, error) {
	if channels != 1 && channels != 3 {
		return 0, fmt.Errorf("color histogram: channels must be 1 or 3, got %d", channels)
	}
	maxBins := 256
	if channels == 3 {
		maxBins = 32 // 32³ = 32768 cells per image already
	}
	if bins < 1 || bins > maxBins {
		return 0, fmt.Errorf("color histogram: bins must lie in 1…%d for %d channel(s), got %d", maxBins, channels, bins)
	}
	if channels == 3 {
		return bins * bins * bins, nil
	}
	return bins, nil
}
