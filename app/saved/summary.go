package saved

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"featurelab/algorithms/describe"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/app/pipeline"
	"featurelab/app/result"
	"featurelab/pca"
)

// Summary is the JSON object `featurelab analyze --json` prints.
type Summary struct {
	Algorithm   string   `json:"algorithm"`
	Source      string   `json:"source"`
	NImages     int      `json:"n_images"`
	Width       int      `json:"width"`
	Height      int      `json:"height"`
	Channels    int      `json:"channels"`
	PCADims     int      `json:"pca_dims"`
	K           int      `json:"k"`
	Lambda2     float64  `json:"lambda2"`
	Objective   float64  `json:"objective"`
	BPObjective float64  `json:"bp_objective"`
	Restarts    int      `json:"restarts,omitempty"`
	Seed        uint64   `json:"seed"`
	Iterations  int      `json:"iterations"`
	Codes       []string `json:"codes"`
	// Reading is the form the codes and features are in: "readable" (a base owned by
	// every image, the emptiest scene, and features that add to it: pipeline.Reading) or
	// "as found" (the learner's own);
	// feature learners only (pipeline.Reading).
	Reading string `json:"reading,omitempty"`
	// NMI and ARI score a clustering against the subfolders its images came in, when
	// they all came in subfolders (Analysis.FolderScores); Subfolders counts them.
	// Features is what the learner read of each image when not the PCA scores
	// ("histogram", "words"); Words the vocabulary's size.
	Features   string            `json:"features,omitempty"`
	Words      int               `json:"words,omitempty"`
	NMI        *float64          `json:"nmi,omitempty"`
	ARI        *float64          `json:"ari,omitempty"`
	Subfolders int               `json:"subfolders,omitempty"`
	Names      []string          `json:"names"`
	Skipped    map[string]string `json:"skipped"`
	Resized    []string          `json:"resized,omitempty"`
	// Exposure is, per image, the exposure gain divided out of it before the PCA (1.04:
	// taken 4 % brighter than the folder's typical picture), to 4 decimals; absent when
	// none was. ExposureNote says what was done and why (pipeline.ExposureHandling).
	Exposure     []float64           `json:"exposure,omitempty"`
	ExposureNote string              `json:"exposure_note,omitempty"`
	Seconds      pipeline.Timings    `json:"seconds"`
	PeakMemory   pipeline.PeakMemory `json:"peak_memory_bytes"`
	PCAMethod    string              `json:"pca_method,omitempty"` // "gram", "svd", "randomized" or "identity"
	Curve        []CurvePoint        `json:"curve,omitempty"`
	// Path is stepwise's λ² path: the K that are best for some λ², read off the curve.
	// Under k_from "objects" the curve and the path are those of the pictures seen
	// through a 1 px blur, on which the learner fitted; objective is on the pictures.
	Path []PathPoint `json:"path,omitempty"`
	// KNote says why the K counts no objects: the folder has none that come and go (most
	// features are patterns shared by groups of pictures, as on a deck of distinct cards),
	// or, off the path, most features vary by degrees (as on faces); absent when it does
	// (result.Analysis.KNote).
	KNote string `json:"k_note,omitempty"`
	// KFrom is how the K was chosen off the λ² path (learn.KFromObjects or
	// learn.KFromWidest); absent when the run had no path to choose from.
	KFrom     string  `json:"k_from,omitempty"`
	Explained float64 `json:"explained_variance,omitempty"`
	// IBP Gibbs sampler only: posterior means over the second half of the
	// sweeps, K after every sweep, and the second-half histogram of K (index = K).
	// objective is the least-squares ‖X − ZA‖² of the sampler's Z, as for the other
	// learners; posterior_objective is ‖X − ZA‖² with the posterior-mean A.
	PosteriorObjective float64 `json:"posterior_objective,omitempty"`
	// AlphaPrior is the prior on α the sampler ran with (learn.AlphaTied, whose λ² is
	// lambda2, or learn.AlphaGamma).
	AlphaPrior string  `json:"alpha_prior,omitempty"`
	Alpha      float64 `json:"alpha,omitempty"`
	// LogAlpha is log α under the tied prior, where α itself is often below the
	// smallest float and alpha then absent.
	LogAlpha   float64 `json:"log_alpha,omitempty"`
	SigmaX     float64 `json:"sigma_x,omitempty"`
	SigmaA     float64 `json:"sigma_a,omitempty"`
	KTrace     []int   `json:"k_trace,omitempty"`
	KHistogram []int   `json:"k_histogram,omitempty"`
	// ZProbability is, per image (in names' order) and feature, the probability that the
	// image owns the feature over the second half of the sweeps, to 3 decimals.
	ZProbability [][]float64 `json:"z_probability,omitempty"`
	// PerFeature describes each feature in column order: how it reads and how much it
	// explains (pipeline.Features).
	PerFeature []FeatureSummary `json:"per_feature,omitempty"`
}

// FeatureSummary is one feature in JSON: its number as shown (#1 is column 0), whether
// it is the base, its effect ("adds" or "removes" against the base, or the mean image
// when there is no base; "brightens" or "darkens" when it is gradual; "pattern" in a
// folder with no objects that come and go; none for the base and clusters), its owners, and the share of
// the data's variation it explains.
type FeatureSummary struct {
	Feature   int     `json:"feature"`
	Base      bool    `json:"base,omitempty"`
	Effect    string  `json:"effect,omitempty"`
	Owners    int     `json:"owners"`
	Explained float64 `json:"explained"`
	// Stability is the share of fits on half-samples of the images that hold the
	// feature; absent when not checked (the IBP, a K too large).
	Stability *float64 `json:"stability,omitempty"`
	// Separation is how cleanly the images split into those that show the feature and
	// those that do not: about 1 for an object that comes and goes, below 0.5 for a
	// change by degrees (exposure, a shift); absent for the base and clusters.
	Separation *float64 `json:"separation,omitempty"`
}

// CurvePoint is one point of the objective-vs-K curve in JSON.
type CurvePoint struct {
	K           int     `json:"k"`
	Objective   float64 `json:"objective"`
	BPObjective float64 `json:"bp_objective"`
}

// PathPoint is one K of the λ² path in JSON: it is the best K for every λ² from
// lambda2_low to lambda2_high (null: no λ² is too large for it).
type PathPoint struct {
	K           int      `json:"k"`
	Objective   float64  `json:"objective"`
	Lambda2Low  float64  `json:"lambda2_low"`
	Lambda2High *float64 `json:"lambda2_high"`
}

// SummaryOf builds the summary of an analysis.
func SummaryOf(a *result.Analysis) Summary {
	res := a.Result
	s := Summary{
		Algorithm:   a.Algorithm.Name,
		Source:      a.Source.String(),
		NImages:     len(a.Data.Names),
		Width:       a.Data.Width,
		Height:      a.Data.Height,
		Channels:    a.Data.Channels,
		PCADims:     pcaDims(a.PCA),
		K:           res.K,
		Lambda2:     res.Lambda2,
		Objective:   Finite(res.Objective),
		BPObjective: Finite(res.BPObjective),
		Restarts:    len(res.RestartObjectives),
		Seed:        a.Options.Seed,
		Iterations:  res.Iterations,
		Codes:       a.Codes(),
		Names:       a.Data.Names,
		Skipped:     map[string]string{},
		Resized:     a.Data.Resized,
		Seconds:     a.Times,
		PeakMemory:  a.Peak,
	}
	if a.Algorithm.LeastSquares() {
		s.Reading = a.ReadingName()
	}
	if fs, ok := a.FolderScores(); ok {
		s.NMI, s.ARI, s.Subfolders = &fs.NMI, &fs.ARI, fs.Folders
	}
	if k := a.Description.Kind; k != "" && k != pipeline.FeaturesPCA {
		s.Features = k
		if k == pipeline.FeaturesWords {
			s.Words = cmp.Or(a.Description.Words, describe.DefaultWords)
		}
	}
	if a.PCA != nil {
		s.PCAMethod = a.PCA.Method
	}
	if res.Trace != nil {
		s.Alpha, s.SigmaX, s.SigmaA = res.Alpha, res.SigmaX, res.SigmaA
		s.AlphaPrior = cmp.Or(a.Options.AlphaPrior, learn.AlphaGamma)
		if s.AlphaPrior == learn.AlphaTied {
			s.LogAlpha = Finite(res.LogAlpha)
		}
		s.PosteriorObjective = Finite(res.PosteriorObjective)
		s.KTrace, s.KHistogram = res.Trace.K, res.KHistogram
		s.ZProbability = zProbability(res)
	}
	for _, sk := range a.Data.Skipped {
		s.Skipped[sk.Path] = sk.Reason
	}
	if a.Exposure.Mode != "" {
		s.ExposureNote = a.Exposure.Note()
	}
	for _, g := range a.Exposure.Gains() {
		s.Exposure = append(s.Exposure, math.Round(g*1e4)/1e4)
	}
	for _, c := range res.Curve {
		s.Curve = append(s.Curve, CurvePoint{K: c.K, Objective: Finite(c.Objective), BPObjective: Finite(c.BPObjective)})
	}
	for _, p := range features.LambdaPath(res.Curve) {
		pp := PathPoint{K: p.K, Objective: p.Objective, Lambda2Low: p.Lambda2Low}
		if !math.IsInf(p.Lambda2High, 1) {
			pp.Lambda2High = &p.Lambda2High
		}
		s.Path = append(s.Path, pp)
	}
	s.KNote = a.KNote()
	if a.Path() != nil && a.Options.Lambda2 == 0 {
		s.KFrom = a.Options.KFrom // the rule RunOn applied, written into the options
	}
	effects, explained, owners, base := a.Effects(), a.Explained(), a.Owners(), a.BaseIndex()
	separation := a.Separation()
	for k := range effects {
		fs := FeatureSummary{Feature: k + 1, Base: k == base, Effect: effects[k], Owners: owners[k], Explained: Finite(explained[k])}
		if k < len(a.Stability) {
			fs.Stability = &a.Stability[k]
		}
		if k < len(separation) && !math.IsNaN(separation[k]) && !math.IsInf(separation[k], 0) {
			fs.Separation = &separation[k]
		}
		s.PerFeature = append(s.PerFeature, fs)
	}
	if a.PCA.TotalVariance > 0 {
		var kept float64
		for _, v := range a.PCA.Variance {
			kept += v
		}
		s.Explained = kept / a.PCA.TotalVariance
	}
	return s
}

// pcaDims is the number of principal components kept, 0 for the --pca 0 mode.
func pcaDims(m *pca.Model) int {
	if m.Identity {
		return 0
	}
	return m.D
}

// Finite keeps JSON encodable: encoding/json refuses NaN and ±Inf.
func Finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return -1
	}
	return v
}

// WriteJSON writes v as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// FullResult is result.json: the summary plus the matrices and traces.
type FullResult struct {
	Summary
	Z                 [][]uint8   `json:"z"`
	A                 [][]float64 `json:"a"`
	RestartObjectives []float64   `json:"restart_objectives,omitempty"`
	Residuals         []float64   `json:"residuals"`
	Owners            []int       `json:"owners"`
	BaseFeature       int         `json:"base_feature"`
}

// FullResultOf gathers everything worth keeping about the analysis.
func FullResultOf(a *result.Analysis) FullResult {
	res := a.Result
	fr := FullResult{
		Summary:     SummaryOf(a),
		Residuals:   a.Residuals(),
		Owners:      a.Owners(),
		BaseFeature: a.BaseIndex(),
	}
	n, _ := res.Z.Dims()
	for i := 0; i < n; i++ {
		row := make([]uint8, res.K)
		for j, z := range res.Z.RawRowView(i) {
			if z != 0 {
				row[j] = 1
			}
		}
		fr.Z = append(fr.Z, row)
	}
	for k := 0; k < res.K; k++ {
		fr.A = append(fr.A, append([]float64(nil), res.A.RawRowView(k)...))
	}
	for _, v := range res.RestartObjectives {
		fr.RestartObjectives = append(fr.RestartObjectives, Finite(v))
	}
	return fr
}

// ObjectiveText words the run's objective for a status line or a header: the fit
// ‖X − ZA‖²_F, and for the learners that pay λ² per feature also their penalised objective,
// the one they minimise. K-features, K-means and the IBP have no penalised objective, and
// showing one equal to the fit said λ² played a part it does not.
func ObjectiveText(a *result.Analysis) string {
	r := a.Result
	if !a.Algorithm.Uses("lambda2") {
		return fmt.Sprintf("objective %.6g", r.Objective)
	}
	return fmt.Sprintf("objective %.6g (with λ² = %.4g per %s: %.6g)", r.Objective, r.Lambda2, unit(a), r.BPObjective)
}

// unit is what λ² is paid for: a feature, or a cluster.
func unit(a *result.Analysis) string {
	if a.IsClustering() {
		return "cluster"
	}
	return "feature"
}

// zProbability is the result's ZProbability as rows rounded to 3 decimals (the shares of
// 500 sweeps need no more), nil when there is none.
func zProbability(res *learn.Result) [][]float64 {
	if res.ZProbability == nil || res.ZProbability.IsEmpty() {
		return nil
	}
	n, k := res.ZProbability.Dims()
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, k)
		for f, v := range res.ZProbability.RawRowView(i) {
			out[i][f] = math.Round(v*1000) / 1000
		}
	}
	return out
}
