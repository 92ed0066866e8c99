package selection

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
)

// StabilitySplits is how many random splits of the images into two halves a result's
// features are checked on (each half is held out once: twice as many checks), and
// stabilityAgreement the share of a held-out half's images whose ownership of a feature
// must come out as the result has it for the feature to hold there.
const (
	StabilitySplits    = 4
	stabilityAgreement = 0.95
)

// Stability checks how reproducible each feature of a feature learner's result is, by
// holding out half of the images: the features are fitted again, by least squares, to
// the other half's images and codes (A = (ZᵀZ)⁻¹ZᵀX), and the held-out images are
// encoded with them (features.Encode). A feature holds on that half when the images
// that own it are, on stabilityAgreement of them, the ones the result says own it; its
// Stability is the share of the 2·StabilitySplits held-out halves where it holds. An
// object that comes and goes is drawn the same from either half and claims the same
// images; a feature fitted to some images' noise — a pixel's jitter, one exposure —
// is drawn differently from the other half and claims others. No learner runs again,
// so no search can miss a fit and count against the features: the check costs one
// least-squares fit and one encoding per half, whatever the restarts.
//
// It returns nil where there is nothing to check: clusterings and the IBP (whose
// posterior answers the question itself), fewer than 8 images, or K above
// features.EncodeExactK.
func Stability(X *mat.Dense, alg *algorithms.Algorithm, res *learn.Result, seed uint64) []float64 {
	n, d := X.Dims()
	k := res.K
	if alg.Sampler() || alg.Clusters() || n < 8 || k < 1 || k > features.EncodeExactK || 2*k > n {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x5354414249)) // "STABI": the splits do not follow the learner's stream
	out := make([]float64, k)
	checks := 0
	for s := 0; s < StabilitySplits; s++ {
		perm := rng.Perm(n)
		halves := [2][]int{perm[:n/2], perm[n/2:]}
		for h, fit := range halves {
			held := halves[1-h]
			Zf, Xf := mat.NewDense(len(fit), k, nil), mat.NewDense(len(fit), d, nil)
			for i, r := range fit {
				Zf.SetRow(i, res.Z.RawRowView(r))
				Xf.SetRow(i, X.RawRowView(r))
			}
			A, ok := features.LeastSquaresA(Zf, Xf)
			checks++
			if !ok {
				continue // some feature is not identified by this half: none holds
			}
			Xh := mat.NewDense(len(held), d, nil)
			for i, r := range held {
				Xh.SetRow(i, X.RawRowView(r))
			}
			Z, err := features.Encode(Xh, A, nil)
			if err != nil {
				continue
			}
			for f := range out {
				same := 0
				for i, r := range held {
					if (res.Z.At(r, f) != 0) == (Z.At(i, f) != 0) {
						same++
					}
				}
				if float64(same) >= stabilityAgreement*float64(len(held)) {
					out[f]++
				}
			}
		}
	}
	for f := range out {
		out[f] /= float64(checks)
	}
	return out
}
