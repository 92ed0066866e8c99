package segment

import (
	"context"
	"errors"
	"fmt"
	"image"
	"time"

	"featurelab/algorithms/learn"
	"featurelab/algorithms/partition"
	"featurelab/imgproc"
)

// Segment splits img into regions with the method opt.Method and returns the label map
// and traces. Bad options give an error naming the field; a cancelled ctx stops the run
// between iterations with ctx.Err().
func Segment(ctx context.Context, img image.Image, opt Options) (*Result, error) {
	start := time.Now()
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if img == nil {
		return nil, errors.New("segment: image is nil")
	}
	b := img.Bounds()
	p, err := newPixels(imgproc.ShrinkTo(img, MaxWorkPixels), opt.Texture, opt.Workers)
	if err != nil {
		return nil, err
	}
	res := &Result{Width: b.Dx(), Height: b.Dy()}
	var labels []int32
	switch opt.Method {
	case MethodKPYP:
		stride := fitStride(p.N, opt.Stride)
		fit, fopt := p, opt
		if stride > 1 {
			fit = p.subsample(stride)
			fopt.Cell = max(1, opt.Cell/stride)
		}
		// Refused before newKPYP allocates the N×C responsibilities.
		if cells := int64(fit.N) * int64(opt.Truncation); cells > maxCells {
			return nil, fmt.Errorf("segment: Truncation %d is too large: %d fitted pixels × %d components need %s of responsibilities, more than the %s allowed; lower Truncation",
				opt.Truncation, fit.N, opt.Truncation, imgproc.BytesText(8*cells), imgproc.BytesText(8*maxCells))
		}
		m := newKPYP(fit, fopt)
		if err := m.initialise(ctx, fopt); err != nil {
			return nil, err
		}
		m.learnLoc, m.learnWidth = opt.LearnLocations, opt.LearnWidths
		res.Bound, err = m.run(ctx, fopt)
		if err != nil {
			return nil, err
		}
		res.Iterations = len(res.Bound)
		labels = m.labels
		if stride > 1 {
			labels = m.labelAll(p, stride)
		}
	case MethodKMeans:
		x, d := clusterFeatures(p, locationWeight)
		labels, res.Bound, err = kmeansLabels(ctx, x, p.N, d, opt.K, opt.Seed, opt.MaxIter, opt.Workers, opt.Progress, opt.Report)
		if err != nil {
			return nil, err
		}
		res.Iterations = len(res.Bound)
	case MethodDPMeans:
		x, d := clusterFeatures(p, locationWeight)
		res.Lambda2 = opt.Lambda2
		if res.Lambda2 == 0 {
			res.Lambda2 = learn.FarthestFirstRows(x, p.N, d, opt.K)
		}
		labels, res.Bound, err = dpMeans(ctx, x, p.N, d, res.Lambda2, opt.MaxIter, maxLabels, opt.Progress)
		if err != nil {
			return nil, err
		}
		res.Iterations = len(res.Bound)
	}
	res.Labels, res.Segments = partition.Compact(labels)
	res.Means = segmentMeans(p.RGB, res.Labels, res.Segments)
	if p.W != res.Width || p.H != res.Height {
		res.Labels = scaleLabels(res.Labels, p.W, p.H, res.Width, res.Height)
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// segmentMeans is the mean sRGB colour of each of the s segments.
func segmentMeans(rgb []float64, labels []int32, s int) [][]float64 {
	sums := make([]float64, 3*s)
	counts := make([]float64, s)
	for n, l := range labels {
		counts[l]++
		sums[3*l] += rgb[3*n]
		sums[3*l+1] += rgb[3*n+1]
		sums[3*l+2] += rgb[3*n+2]
	}
	means := make([][]float64, s)
	for i := range means {
		means[i] = []float64{sums[3*i] / counts[i], sums[3*i+1] / counts[i], sums[3*i+2] / counts[i]}
	}
	return means
}

// Segments is the number of distinct labels of a segmentation, however numbered: what a
// result's Segments counts, for label maps made elsewhere.
func Segments(labels []int32) int {
	_, n := partition.Compact(labels)
	return n
}
