package encoding

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/features"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/imgproc"
	"featurelab/internal/parallel"
)

// UnexplainedQuantile is the share of the training images whose residual an image may
// exceed before it is flagged as not explained by the features.
const UnexplainedQuantile = 0.99

// batchBytes bounds the float64 copy of the images being encoded at once (at most
// 256 of them): that copy, not one of the folder, is what encoding adds to the loaded
// data.
const batchBytes = 64 << 20

// maxSide bounds a picture's side, as the saved files do.
const maxSide = 1 << 20

// Encoder is what coding new images needs of an analysis, at its working size.
type Encoder struct {
	Width, Height, Channels int
	Mean                    []float32 // the mean picture, Width·Height·Channels values
	// Features holds the K feature pictures, row after row, in the reading shown: what
	// each adds to the picture of an image that owns it.
	Features []float32
	K        int
	// Base is the feature every training image owns (kept on for every new image), or
	// −1; Clusters says the codes are one-hot (a clustering: the nearest centre).
	Base     int
	Clusters bool
	// Limit is the mean squared residual per value above which an image is
	// unexplained: the training images' UnexplainedQuantile.
	Limit float64
	// Noise and Prior are set for an IBP analysis, whose model gives each new image a
	// probability of owning each feature (Probabilities): Noise is its σ_X in the
	// pictures' units (σ_X times the PCA's scale, which maps scores to pixels), Prior
	// per feature the probability that a new image owns it before it is seen, m_k/(N+1)
	// of the N training images (the IBP's rule for the next image). Noise is 0 and Prior
	// nil for the other learners.
	Noise float64
	Prior []float64
	// Exposure is the picture the analysis measured its images' exposure gains against
	// and divided them out by (pipeline.ExposureHandling), nil when it kept them as taken:
	// a new image's gain is measured and divided out alike before it is coded.
	Exposure []float32
}

// Code is one image's encoding.
type Code struct {
	Name string
	Code string // one '0' or '1' per feature, as the codes CSV writes them
	// Residual is the mean squared difference per value between the image and its
	// code's picture.
	Residual    float64
	Unexplained bool // Residual above the Encoder's Limit
	// Probability is, for an IBP analysis (Encoder.Noise > 0), the probability of the
	// image owning each feature in column order given the features (Probabilities); nil
	// otherwise.
	Probability []float64
}

// FromAnalysis is the Encoder of a: its features' pictures and mean, with the limit
// measured on its own images.
func FromAnalysis(a *result.Analysis) (*Encoder, error) {
	res, ds := a.Result, a.Data
	if res == nil || res.A == nil || ds == nil || a.PCA == nil || len(ds.Names) == 0 {
		return nil, errors.New("encoding: the analysis has no features to encode with")
	}
	if k := a.Description.Kind; k != "" && k != pipeline.FeaturesPCA {
		return nil, fmt.Errorf("encoding: the learner read each image's %s, not its PCA scores; new pictures can only be coded with an analysis of the PCA scores", k)
	}
	k, _ := res.A.Dims()
	pix := a.PCA.InverseDense(res.A)
	mean := a.PCA.MeanPixels()
	e := &Encoder{Width: ds.Width, Height: ds.Height, Channels: ds.Channels, K: k,
		Base: a.BaseIndex(), Clusters: a.IsClustering(), Mean: toFloat32(mean)}
	e.Features = make([]float32, 0, k*len(mean))
	for j := 0; j < k; j++ {
		row := pix.RawRowView(j)
		for q, v := range row {
			e.Features = append(e.Features, float32(v-mean[q]))
		}
	}
	if a.Exposure.Divided {
		e.Exposure = a.Exposure.Measured.Reference
	}
	codes := a.Codes()
	if res.SigmaX > 0 && !e.Clusters { // the IBP's noise: its model has probabilities
		e.Noise = res.SigmaX * a.PCA.Scale
		e.Prior = make([]float64, k)
		for j, m := range a.Owners() {
			e.Prior[j] = float64(m) / float64(len(ds.Names)+1)
		}
	}
	resid, scratch := make([]float64, len(ds.Names)), make([]float64, len(mean))
	for i := range resid {
		resid[i] = e.residual(ds.Row(i), codes[i], scratch)
	}
	slices.Sort(resid)
	e.Limit = resid[min(len(resid)-1, int(math.Ceil(UnexplainedQuantile*float64(len(resid))))-1)]
	return e, nil
}

// Values is the number of values of each picture.
func (e *Encoder) Values() int { return e.Width * e.Height * e.Channels }

// Check says what is wrong with e, or nil: the sizes must agree and every value be a
// number, as a file read back from disk must be checked before it is used.
func (e *Encoder) Check() error {
	if e.Width < 1 || e.Width > maxSide || e.Height < 1 || e.Height > maxSide || (e.Channels != 1 && e.Channels != 3) {
		return fmt.Errorf("encoder: pictures of %d×%d in %d channels", e.Width, e.Height, e.Channels)
	}
	p := e.Values() // at most 3·2⁴⁰: no overflow
	switch {
	case len(e.Mean) != p:
		return fmt.Errorf("encoder: the mean picture has %d values, want %d", len(e.Mean), p)
	case e.K < 1 || int64(len(e.Features)) != int64(e.K)*int64(p):
		return fmt.Errorf("encoder: %d feature values for K = %d pictures of %d", len(e.Features), e.K, p)
	case e.Base < -1 || e.Base >= e.K:
		return fmt.Errorf("encoder: base feature %d of %d", e.Base, e.K)
	case e.Exposure != nil && len(e.Exposure) != p:
		return fmt.Errorf("encoder: the exposure reference has %d values, want %d", len(e.Exposure), p)
	case !(e.Limit >= 0) || math.IsInf(e.Limit, 0):
		return fmt.Errorf("encoder: residual limit %v", e.Limit)
	case e.Noise != 0 || e.Prior != nil:
		// 1/(2σ²) must be a number: a noise of 1e-200 made every probability NaN.
		if !(e.Noise > 0) || math.IsInf(1/(2*e.Noise*e.Noise), 0) || math.IsInf(e.Noise, 0) || len(e.Prior) != e.K {
			return fmt.Errorf("encoder: noise %v and %d prior probabilities for K = %d", e.Noise, len(e.Prior), e.K)
		}
		for _, p := range e.Prior {
			if !(p > 0 && p < 1) {
				return fmt.Errorf("encoder: prior probability %v, want one in (0, 1)", p)
			}
		}
	}
	for _, pic := range [][]float32{e.Mean, e.Features, e.Exposure} {
		for _, v := range pic {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return errors.New("encoder: a picture holds a value that is not a number")
			}
		}
	}
	return nil
}

// feature is the picture of feature k.
func (e *Encoder) feature(k int) []float32 {
	p := e.Values()
	return e.Features[k*p : (k+1)*p]
}

// residual is the mean squared difference per value between x and the picture of code.
// r is scratch of len(x) values.
func (e *Encoder) residual(x []float32, code string, r []float64) float64 {
	for q, v := range x {
		r[q] = float64(v) - float64(e.Mean[q])
	}
	for k := 0; k < e.K; k++ {
		if code[k] == '1' {
			for q, v := range e.feature(k) {
				r[q] -= float64(v)
			}
		}
	}
	return floats.Dot(r, r) / float64(len(x))
}

// Encode codes every image of ds, which must be at the Encoder's size and channels (load
// it with LoadOptions). It stops when ctx is cancelled, between batches of images, and
// reports after each batch to progress (nil: none) how many images are coded.
func (e *Encoder) Encode(ctx context.Context, ds *imgproc.Dataset, progress func(done, total int)) ([]Code, error) {
	if ds.Width != e.Width || ds.Height != e.Height || ds.Channels != e.Channels {
		return nil, fmt.Errorf("encoding: the images are %d×%d in %d channels, the analysis's %d×%d in %d",
			ds.Width, ds.Height, ds.Channels, e.Width, e.Height, e.Channels)
	}
	p, n := e.Values(), len(ds.Names)
	// The features a code is chosen among: all but the base, which every image keeps.
	var free []int
	for k := 0; k < e.K; k++ {
		if k != e.Base {
			free = append(free, k)
		}
	}
	F := e.pictures(free)
	var base []float32
	if e.Base >= 0 {
		base = e.feature(e.Base)
	}
	out := make([]Code, n)
	if n == 0 {
		return out, nil
	}
	batch := max(1, min(256, n, batchBytes/(8*p)))
	X := mat.NewDense(batch, p, nil)
	for lo := 0; lo < n; lo += batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+batch, n)
		Xb := X.Slice(0, hi-lo, 0, p).(*mat.Dense)
		// Each picture's row, its exposure divided out as the training pictures' was, on
		// every core: one by one, a large folder's rows take seconds.
		parallel.For(runtime.GOMAXPROCS(0), hi-lo, func(_, j int) {
			i := lo + j
			row := Xb.RawRowView(j)
			gain := 1.0
			if e.Exposure != nil {
				gain, _ = imgproc.GainAgainst(ds.Row(i), e.Exposure, e.Width, e.Height, e.Channels)
			}
			for q, v := range ds.Row(i) {
				row[q] = float64(v)/gain - float64(e.Mean[q])
			}
			for q, v := range base {
				row[q] -= float64(v)
			}
		})
		codes, err := e.codes(Xb, F, free)
		if err != nil {
			return nil, err
		}
		probs := e.probabilities(Xb, F, free, codes)
		for i := lo; i < hi; i++ {
			c := codes[i-lo]
			// What the code leaves of the image: its row less the features it owns.
			row := Xb.RawRowView(i - lo)
			for j, k := range free {
				if c[k] == '1' {
					floats.Sub(row, F.RawRowView(j))
				}
			}
			r := floats.Dot(row, row) / float64(p)
			out[i] = Code{Name: ds.Names[i], Code: c, Residual: r, Unexplained: r > e.Limit}
			if probs != nil {
				out[i].Probability = probs[i-lo]
			}
		}
		if progress != nil {
			progress(hi, n)
		}
	}
	return out, nil
}

// pictures are the features free as the rows of a matrix, nil when there are none.
func (e *Encoder) pictures(free []int) *mat.Dense {
	if len(free) == 0 {
		return nil
	}
	F := mat.NewDense(len(free), e.Values(), nil)
	for j, k := range free {
		row := F.RawRowView(j)
		for q, v := range e.feature(k) {
			row[q] = float64(v)
		}
	}
	return F
}

// codes are the best codes of the rows of X (the images less the mean and the base)
// among the features free: as features.Encode finds them (every combination up to
// EncodeExactK features, single flips above), or for a clustering one at a time.
func (e *Encoder) codes(X, F *mat.Dense, free []int) ([]string, error) {
	n, _ := X.Dims()
	bits := make([][]byte, n)
	for i := range bits {
		bits[i] = []byte(strings.Repeat("0", e.K))
		if e.Base >= 0 {
			bits[i][e.Base] = '1'
		}
	}
	if F != nil {
		if e.Clusters {
			nearest(X, F, free, bits)
		} else {
			Z, err := features.Encode(X, F, nil)
			if err != nil {
				return nil, err
			}
			for i := range bits {
				for j, k := range free {
					if Z.At(i, j) != 0 {
						bits[i][k] = '1'
					}
				}
			}
		}
	}
	out := make([]string, n)
	for i, b := range bits {
		out[i] = string(b)
	}
	return out, nil
}

// nearest gives each row of X the one feature of F nearest to it (a clustering's
// centres, less the mean).
func nearest(X, F *mat.Dense, free []int, bits [][]byte) {
	n, _ := X.Dims()
	for i := 0; i < n; i++ {
		x := X.RawRowView(i)
		best, bd := 0, math.Inf(1)
		for j := range free {
			var s float64
			for q, v := range F.RawRowView(j) {
				r := x[q] - v
				s += r * r
			}
			if s < bd {
				best, bd = j, s
			}
		}
		bits[i][free[best]] = '1'
	}
}

func toFloat32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}
