package saved

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"

	"featurelab/app/encoding"
	"featurelab/app/pipeline"
	"featurelab/app/result"
)

// maxEncoderBytes bounds what a saved file spends on its encoder: 24 MB holds the mean
// and 26 feature pictures at the default working size of 76 800 colour pixels (25 with
// an exposure reference). Past it
// the analysis is saved without one, and encode says so; a file that holds a larger one
// is refused.
const maxEncoderBytes = 24 << 20

// savedEncoder is encoding.Encoder in the file: its pictures as little-endian float32s
// in base64, about 5.5 MB for the tabletop's 320×240 colour base and four features.
type savedEncoder struct {
	Width    int       `json:"width"`
	Height   int       `json:"height"`
	Channels int       `json:"channels"`
	K        int       `json:"k"`
	Base     int       `json:"base"`
	Clusters bool      `json:"clusters,omitempty"`
	Limit    jsonFloat `json:"residual_limit"`
	Mean     string    `json:"mean"`
	Features string    `json:"features"`
	// Noise and Prior are an IBP analysis' (encoding.Encoder): absent for the other
	// learners and in files saved before encode gave probabilities.
	Noise jsonFloat  `json:"noise,omitempty"`
	Prior jsonFloats `json:"prior,omitempty"`
	// Exposure is the picture exposure gains were measured against, when the analysis
	// divided them out (encoding.Encoder.Exposure); absent otherwise.
	Exposure string `json:"exposure_reference,omitempty"`
}

// encoderOf is a's encoder, or nil when it would not fit maxEncoderBytes or its
// learner read something other than the PCA scores (histograms, visual words), which
// the pictures do not encode.
func encoderOf(a *result.Analysis) (*encoding.Encoder, error) {
	k, _ := a.Result.A.Dims()
	if encoderBytes(k, a.Data.Values(), a.Exposure.Divided) > maxEncoderBytes || (a.Description.Kind != "" && a.Description.Kind != pipeline.FeaturesPCA) {
		return nil, nil
	}
	return encoding.FromAnalysis(a)
}

// encoderBytes is what an encoder of k pictures of p values takes, with its mean and,
// when it has one, its exposure reference.
func encoderBytes(k, p int, exposure bool) int64 {
	pictures := int64(k + 1)
	if exposure {
		pictures++
	}
	return pictures * int64(p) * 4
}

func toSavedEncoder(e *encoding.Encoder) *savedEncoder {
	if e == nil {
		return nil
	}
	return &savedEncoder{Width: e.Width, Height: e.Height, Channels: e.Channels, K: e.K, Base: e.Base,
		Clusters: e.Clusters, Limit: jsonFloat(e.Limit), Mean: floats32(e.Mean), Features: floats32(e.Features),
		Noise: jsonFloat(e.Noise), Prior: e.Prior, Exposure: floats32OrEmpty(e.Exposure)}
}

// floats32OrEmpty is floats32, "" for none.
func floats32OrEmpty(v []float32) string {
	if v == nil {
		return ""
	}
	return floats32(v)
}

// encoder checks a decoded encoder against the working size of the data it was saved
// with and the result's K, and returns it.
func (s *savedEncoder) encoder(width, height, channels, k int) (*encoding.Encoder, error) {
	if s.Width != width || s.Height != height || s.Channels != channels || s.K != k {
		return nil, fmt.Errorf("encoder is for %d×%d×%d pictures and K = %d, the data %d×%d×%d and the result K = %d",
			s.Width, s.Height, s.Channels, s.K, width, height, channels, k)
	}
	p := s.Width * s.Height * s.Channels
	if encoderBytes(s.K, p, s.Exposure != "") > maxEncoderBytes {
		return nil, fmt.Errorf("encoder of %d pictures of %d values is larger than the %d MB any analysis saves", encoderBytes(s.K, p, s.Exposure != "")/(4*int64(p)), p, maxEncoderBytes>>20)
	}
	mean, err := readFloats32("encoder mean", s.Mean, p)
	if err != nil {
		return nil, err
	}
	feats, err := readFloats32("encoder features", s.Features, s.K*p)
	if err != nil {
		return nil, err
	}
	if len(s.Prior) > s.K {
		return nil, fmt.Errorf("encoder has %d prior probabilities for K = %d", len(s.Prior), s.K)
	}
	e := &encoding.Encoder{Width: s.Width, Height: s.Height, Channels: s.Channels, K: s.K, Base: s.Base,
		Clusters: s.Clusters, Limit: float64(s.Limit), Mean: mean, Features: feats,
		Noise: float64(s.Noise), Prior: s.Prior}
	if s.Exposure != "" {
		if e.Exposure, err = readFloats32("encoder exposure_reference", s.Exposure, p); err != nil {
			return nil, err
		}
	}
	if err := e.Check(); err != nil {
		return nil, err
	}
	return e, nil
}

func floats32(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// readFloats32 decodes want float32s written by floats32, checking the length before
// decoding so that a crafted file cannot ask for more.
func readFloats32(what, text string, want int) ([]float32, error) {
	if base64.StdEncoding.DecodedLen(len(text)) > 4*want+3 {
		return nil, fmt.Errorf("%s holds more than the %d numbers it should", what, want)
	}
	b, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", what, err)
	}
	if len(b) != 4*want {
		return nil, fmt.Errorf("%s holds %d numbers, want %d", what, len(b)/4, want)
	}
	out := make([]float32, want)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}
