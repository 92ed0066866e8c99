package describe

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/cluster"
	"featurelab/algorithms/learn"
	"featurelab/imgproc"
	"featurelab/internal/parallel"
)

// Histogram and vocabulary sizes.
const (
	// HistogramBinsColour is the bins per channel of a colour image's joint RGB histogram
	// (8³ = 512 cells); HistogramBinsGrey those of a grey image's histogram.
	HistogramBinsColour = 8
	HistogramBinsGrey   = 32
	// DefaultWords is the vocabulary size of a bag of visual words.
	DefaultWords = 200
	// wordSample bounds the descriptors the vocabulary is learned from, drawn evenly from
	// the images (at least one per image).
	wordSample = 20000
	// vocabularyIters bounds the Lloyd iterations of the vocabulary's K-means: running
	// to convergence costs far more and gives vocabularies whose clusterings score about
	// the same (docs/DESIGN.md, "Measurements behind the code").
	vocabularyIters = 30
	// wordPrior is the pseudo-count every word gets in every image's bag.
	wordPrior = 0.5
)

// Histograms is each image's colour histogram, a row of N × cells summing to 1: joint
// RGB with HistogramBinsColour bins per channel (imgproc.ColorHistogram), or
// HistogramBinsGrey bins of a grey image's values.
func Histograms(ctx context.Context, ds *imgproc.Dataset) (*mat.Dense, error) {
	n := len(ds.Names)
	bins := HistogramBinsColour
	if ds.Channels == 1 {
		bins = HistogramBinsGrey
	}
	cols, err := imgproc.HistogramCells(ds.Channels, bins)
	if err != nil {
		return nil, err
	}
	out := mat.NewDense(n, cols, nil)
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := imgproc.ColorHistogram(ds.Row(i), ds.Channels, bins, out.RawRowView(i)); err != nil {
			return nil, fmt.Errorf("image %d: %w", i, err)
		}
	}
	return out, nil
}

// Words is each image's bag of visual words, a row of N × words: dense gradient-
// orientation descriptors (imgproc.GradientDescriptors) on a grid over every image,
// quantised by K-means into a vocabulary of words words (0: DefaultWords) learned on the
// folder itself, from a sample of at most wordSample descriptors drawn evenly from the
// images by seed; each row is the image's word counts over its number of patches, with
// a prior of wordPrior for every word. The same seed gives the same vocabulary whatever
// the number of workers.
func Words(ctx context.Context, ds *imgproc.Dataset, words int, seed uint64, workers int) (*mat.Dense, error) {
	n := len(ds.Names)
	if words == 0 {
		words = DefaultWords
	}
	if words < 1 {
		return nil, fmt.Errorf("words must be ≥ 1, got %d", words)
	}
	if ds.Width < 2*imgproc.GradCell || ds.Height < 2*imgproc.GradCell {
		return nil, fmt.Errorf("the images are %d×%d at the working size: visual words need at least %d×%d", ds.Width, ds.Height, 2*imgproc.GradCell, 2*imgproc.GradCell)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	per := max(1, wordSample/n)
	// Pass 1: per image, a reservoir sample of its descriptors from its own generator, so
	// the sample is the same whichever worker draws it.
	samples := make([][]float64, n)
	err := forEachImage(ctx, n, workers, func(i int) {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		pick := make([]float64, 0, per*imgproc.GradDims)
		seen := 0
		imgproc.GradientDescriptors(ds.Row(i), ds.Width, ds.Height, ds.Channels, func(d []float64) {
			seen++
			switch {
			case seen <= per:
				pick = append(pick, d...)
			default:
				if r := rng.IntN(seen); r < per {
					copy(pick[r*imgproc.GradDims:(r+1)*imgproc.GradDims], d)
				}
			}
		})
		samples[i] = pick
	})
	if err != nil {
		return nil, err
	}
	var flat []float64
	for _, s := range samples {
		flat = append(flat, s...)
	}
	rows := len(flat) / imgproc.GradDims
	words = min(words, rows)
	vocab, err := cluster.KMeans(ctx, mat.NewDense(rows, imgproc.GradDims, flat),
		learn.Options{K: words, Restarts: 1, MaxIter: vocabularyIters, Seed: seed, Workers: workers})
	if err != nil {
		return nil, fmt.Errorf("learning the vocabulary: %w", err)
	}
	centres := vocab.A
	// Pass 2: every descriptor of every image to its nearest word.
	out := mat.NewDense(n, words, nil)
	err = forEachImage(ctx, n, workers, func(i int) {
		row := out.RawRowView(i)
		count := imgproc.GradientDescriptors(ds.Row(i), ds.Width, ds.Height, ds.Channels, func(d []float64) {
			best, bestD := 0, math.Inf(1)
			for c := 0; c < words; c++ {
				if v := sqDistUnder(d, centres.RawRowView(c), bestD); v < bestD {
					best, bestD = c, v
				}
			}
			row[best]++
		})
		// Half a count of every word (a Jeffreys prior on the image's word frequencies):
		// a word an image happens not to show is rare, not impossible, so KL between
		// images stays finite and measures the words they show.
		floats.AddConst(wordPrior, row)
		floats.Scale(1/(float64(count)+wordPrior*float64(words)), row)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sqDistUnder is ‖a − b‖², or any value ≥ bound once the sum reaches it: the nearest
// word search needs no more.
func sqDistUnder(a, b []float64, bound float64) float64 {
	b = b[:len(a)]
	var s float64
	for j, v := range a {
		t := v - b[j]
		s += t * t
		if s >= bound {
			return s
		}
	}
	return s
}

// forEachImage calls fn for every image index on workers goroutines, each index once,
// and returns ctx's error if it was cancelled: the indices not yet begun are skipped.
func forEachImage(ctx context.Context, n, workers int, fn func(i int)) error {
	parallel.For(workers, n, func(_, i int) {
		if ctx.Err() == nil {
			fn(i)
		}
	})
	return ctx.Err()
}
