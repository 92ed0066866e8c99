package imgproc

import (
	"math"
)

// Dense local descriptors for a bag of visual words (Jiang, Kulis & Jordan 2012, §5, use
// dense SIFT; these are its simpler cousin): on a grid of patches over the image, each
// patch's gradient orientations binned in 2×2 cells, the histogram of oriented gradients
// of Dalal & Triggs (2005) without the block overlap. A patch is GradCell·2 pixels on a
// side and patches start every GradCell pixels, so neighbours overlap by half.
const (
	// GradCell is a cell's side in pixels at the working size.
	GradCell = 4
	// GradBins is the number of orientation bins over 0…π (unsigned gradients, so a dark
	// edge on light and a light edge on dark are the same word).
	GradBins = 8
	// GradDims is a descriptor's length: 2×2 cells of GradBins.
	GradDims = 4 * GradBins
)

// GradientDescriptors calls fn with the descriptor of every patch of the image row (one
// image of the data set: w × h pixels of channels values in [0, 1], pixel-interleaved),
// in raster order of the patches' corners; fn must not keep desc. A descriptor is the
// patch's four cells' orientation histograms, each gradient voting its magnitude into its
// orientation's bin (split linearly between the two nearest), normalised to unit length;
// a patch with no gradient at all (a flat area) gives the zero vector. Colour images use
// their luminance. It returns the number of patches: 0 when the image is smaller than
// one patch.
func GradientDescriptors(row []float32, w, h, channels int, fn func(desc []float64)) int {
	side := 2 * GradCell
	if w < side || h < side {
		return 0
	}
	lum := make([]float64, w*h)
	for i := range lum {
		if channels == 3 {
			r, g, b := row[3*i], row[3*i+1], row[3*i+2]
			lum[i] = 0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)
		} else {
			lum[i] = float64(row[i])
		}
	}
	// Per pixel: the gradient's magnitude and its orientation's bin position in
	// [0, GradBins), by central differences (one-sided at the border).
	mag := make([]float64, w*h)
	pos := make([]float64, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			gx := lum[y*w+min(x+1, w-1)] - lum[y*w+max(x-1, 0)]
			gy := lum[min(y+1, h-1)*w+x] - lum[max(y-1, 0)*w+x]
			mag[y*w+x] = math.Hypot(gx, gy)
			a := math.Atan2(gy, gx)
			if a < 0 {
				a += math.Pi
			}
			pos[y*w+x] = math.Mod(a/math.Pi*GradBins, GradBins)
		}
	}
	desc := make([]float64, GradDims)
	n := 0
	for y0 := 0; y0+side <= h; y0 += GradCell {
		for x0 := 0; x0+side <= w; x0 += GradCell {
			clear(desc)
			for dy := 0; dy < side; dy++ {
				for dx := 0; dx < side; dx++ {
					i := (y0+dy)*w + x0 + dx
					m := mag[i]
					if !(m > 0) || math.IsInf(m, 0) || math.IsNaN(pos[i]) {
						continue // no gradient, or a pixel that is not a number, votes nothing
					}
					cell := (dy/GradCell)*2 + dx/GradCell
					p := pos[i] - 0.5 // bin centres at 0.5, 1.5, …
					lo := int(math.Floor(p))
					f := p - float64(lo)
					desc[cell*GradBins+(lo+GradBins)%GradBins] += m * (1 - f)
					desc[cell*GradBins+(lo+1)%GradBins] += m * f
				}
			}
			var norm float64
			for _, v := range desc {
				norm += v * v
			}
			if norm > 0 {
				inv := 1 / math.Sqrt(norm)
				for j := range desc {
					desc[j] *= inv
				}
			}
			fn(desc)
			n++
		}
	}
	return n
}
