package result

import (
	"image"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/features"
	"featurelab/imgproc"
	"featurelab/internal/parallel"
)

// Feature is one learned feature ready to be shown: its picture mapped back to pixels,
// the signed feature alone, how it reads against the base, and how many images own it.
type Feature struct {
	Index  int         // column of Z / row of A
	Base   bool        // the base feature (owned by every image) of a feature learner
	Image  image.Image // base + feature (the base alone for the base; the centre for a cluster; with no base, the feature added to the mean image)
	Signed image.Image // the feature alone on a diverging colour map (nil for the base and clusters)
	Effect string      // Adds, Removes, Brightens, Darkens or Pattern (Features says how it is read); "" for the base and clusters
	Owners int         // images whose code has this feature
	// Explained is the share of the data's variation the feature accounts for: what the
	// fit would lose without it, its A held fixed (Analysis.Explained); 0 for the base
	// and clusters.
	Explained float64
	// Stability is the share of fits on half-samples of the images that hold the
	// feature (Analysis.Stability), −1 when it was not checked.
	Stability float64
	// Separation is how cleanly the images split into those that show the feature and
	// those that do not (Analysis.Separation); NaN for the base and clusters.
	Separation float64
	// Brightens is the sign of the feature's net change of the pixels: true when it makes
	// the picture brighter on the whole. The signed picture shows where (red brighter,
	// blue darker).
	Brightens bool
}

// IsClustering reports whether the analysis is a clustering (one feature per image).
func (a *Analysis) IsClustering() bool {
	return a.Algorithm.Clusters()
}

// Owners counts, for every feature, the images that own it.
func (a *Analysis) Owners() []int {
	Z := a.Result.Z
	n, k := Z.Dims()
	owners := make([]int, k)
	for i := 0; i < n; i++ {
		for j, z := range Z.RawRowView(i) {
			if z != 0 {
				owners[j]++
			}
		}
	}
	return owners
}

// BaseIndex is the base feature: the first one owned by every image, or −1 when there is
// none (a clustering, an empty result, or data with no common background, such as the
// tetris blocks).
func (a *Analysis) BaseIndex() int {
	if a.IsClustering() || a.Result.K == 0 {
		return -1
	}
	n, _ := a.Result.Z.Dims()
	for j, c := range a.Owners() {
		if c == n {
			return j
		}
	}
	return -1
}

// Effect words of a feature's reading: what it does to the picture it is added to.
// An object that comes and goes adds or removes; a change by degrees (a gradual
// feature: lighting, a face's traits) brightens or darkens, whichever most of its
// change does.
const (
	Adds      = "adds"
	Removes   = "removes"
	Brightens = "brightens"
	Darkens   = "darkens"
)

// Features maps every learned feature back to pixels through the PCA inverse.
//
// A feature reads against the base, what every image shares, or, in a result with no
// base, against the mean image: it "adds" when the picture with it holds more structure
// where they differ (edges, print, an outline, or the darkness of a shadow: imgproc.Holds) than the picture without
// it, and "removes" otherwise. In the readable form every feature adds (Reading); the
// form as found may hold removals. Whether an object's pixels are brighter or darker is
// the signed picture's to show, not the caption's: a dark phone on a brown table adds an
// object.
// A gradual feature (its images do not split cleanly, features.SeparationClear) is no
// object to add: it "brightens" or "darkens", as most of its change does. Most of the
// ORL faces' features are gradual, and the outline measure would call a face darkened
// all over one that adds. In a folder with no objects that come and go (NoObjects), a
// feature that is neither stable nor cleanly split is a Pattern that a group of pictures
// shares, not a thing added.
func (a *Analysis) Features() []Feature {
	res := a.Result
	if res == nil || res.A == nil || res.K == 0 {
		return nil
	}
	ds := a.Data
	owners := a.Owners()
	base := a.BaseIndex()
	pix := a.featurePixels(base)
	effects, ok := a.cachedEffects()
	if !ok {
		effects = a.effects(pix, base)
		a.keepEffects(effects)
	}
	a.markPatterns(effects)
	explained, separation := a.Explained(), a.Separation()
	without := pix.RawRowView(2 * res.K)
	feats := make([]Feature, res.K)
	// Each feature's pictures are its own rows of pix: drawn side by side.
	parallel.For(a.Workers(), res.K, func(_, k int) {
		f := Feature{Index: k, Owners: owners[k], Base: k == base, Effect: effects[k], Explained: explained[k], Stability: -1,
			Separation: separation[k]}
		if k < len(a.Stability) {
			f.Stability = a.Stability[k]
		}
		f.Image = imgproc.VectorToImage(pix.RawRowView(k), ds.Width, ds.Height, ds.Channels)
		if k != base && !a.IsClustering() {
			// The feature's own change in pixels: inverse(a) − inverse(0), which removes
			// the PCA mean.
			delta := pix.RawRowView(res.K + k)
			var net float64
			for i := range delta {
				delta[i] -= without[i]
				net += delta[i]
			}
			f.Signed = imgproc.Diverging(delta, ds.Width, ds.Height, ds.Channels)
			f.Brightens = net >= 0
		}
		feats[k] = f
	})
	out := make([]Feature, 0, res.K)
	if base >= 0 {
		out = append(out, feats[base])
	}
	for k, f := range feats {
		if k != base {
			out = append(out, f)
		}
	}
	return out
}

// Effects is every feature's reading, Adds, Removes, Brightens, Darkens or Pattern, in
// column order; "" for the base and for clusters (Features).
func (a *Analysis) Effects() []string {
	res := a.Result
	if res == nil || res.A == nil || res.K == 0 {
		return nil
	}
	effects, ok := a.cachedEffects()
	if !ok {
		base := a.BaseIndex()
		effects = a.effects(a.featurePixels(base), base)
		a.keepEffects(effects)
	}
	a.markPatterns(effects) // of the stability shown, which the cache's key does not hold
	return effects
}

// cachedEffects is a copy of the effects read of this result's Z and A before, if any:
// the JSON and the feature grid each read them, a reading of every feature's picture.
func (a *Analysis) cachedEffects() ([]string, bool) {
	e, ok := a.memo.effectsTable().Get([2]*mat.Dense{a.Result.Z, a.Result.A})
	return slices.Clone(e), ok
}

// keepEffects keeps the effects read of this result's Z and A.
func (a *Analysis) keepEffects(effects []string) {
	a.memo.effectsTable().Put([2]*mat.Dense{a.Result.Z, a.Result.A}, slices.Clone(effects))
}

// effects reads each feature from featurePixels' rows: the base against base + feature,
// or with no base the mean image (no feature at all) against mean + feature.
func (a *Analysis) effects(pix *mat.Dense, base int) []string {
	K := a.Result.K
	out := make([]string, K)
	if a.IsClustering() {
		return out
	}
	ds := a.Data
	separation := a.Separation()
	// Every feature is read against the same picture, prepared once where the features
	// act (PrepareFor) and then read by all of them at once, each feature's change to it
	// on its own (imgproc.Change), as orient reads them.
	without, with := pix.RawRowView(2*K), func(k int) []float64 { return pix.RawRowView(K + k) }
	if base >= 0 {
		without, with = pix.RawRowView(base), pix.RawRowView
	}
	changes := make([]*imgproc.Change, K)
	var read []int // the features read by their pictures, not by degrees
	for k := range out {
		if k == base {
			continue
		}
		if s := separation[k]; !math.IsNaN(s) && s < features.SeparationClear {
			out[k] = brightness(without, with(k))
			continue
		}
		read = append(read, k)
	}
	if len(read) == 0 {
		return out
	}
	scene := imgproc.NewPicture(without, ds.Width, ds.Height, ds.Channels)
	scratch := make([]imgproc.Picture, a.Workers())
	parallel.For(len(scratch), len(read), func(w, i int) {
		k := read[i]
		delta := make([]float64, ds.Values())
		floats.SubTo(delta, with(k), without)
		changes[k] = imgproc.NewChange(delta, ds.Width, ds.Height, ds.Channels, &scratch[w])
	})
	var prepared []*imgproc.Change
	for _, k := range read {
		prepared = append(prepared, changes[k])
	}
	if scene != nil { // pictures under 2 × 2 read nothing: every feature adds
		scene.PrepareFor(prepared, a.Workers())
	}
	parallel.For(a.Workers(), len(read), func(_, i int) {
		k := read[i]
		out[k] = Adds
		if scene.HoldsChange(changes[k]) < 0 {
			out[k] = Removes
		}
	})
	return out
}

// brightness is Brightens when most of the change from without to with (summed over
// pixels and channels) brightens, Darkens otherwise.
func brightness(without, with []float64) string {
	var up, down float64
	for i, v := range with {
		if d := v - without[i]; d > 0 {
			up += d
		} else {
			down -= d
		}
	}
	if up >= down {
		return Brightens
	}
	return Darkens
}

// featurePixels maps, in one pass over the PCA components (pca.Model.InverseDense),
// what the features view shows: rows 0…K−1 each feature with the base added (the base
// alone for the base), rows K…2K−1 each feature alone, and row 2K no feature at all.
func (a *Analysis) featurePixels(base int) *mat.Dense {
	res := a.Result
	_, d := res.A.Dims()
	S := mat.NewDense(2*res.K+1, d, nil)
	for k := 0; k < res.K; k++ {
		row := res.A.RawRowView(k)
		S.SetRow(k, row)
		S.SetRow(res.K+k, row)
		if base >= 0 && k != base {
			withBase := S.RawRowView(k)
			for c, v := range res.A.RawRowView(base) {
				withBase[c] += v
			}
		}
	}
	return a.PCA.InverseDense(S)
}

// Explained is, per feature, the share of the data's variation about its mean that the
// feature's own term accounts for: Σᵢ‖zᵢₖaₖ − z̄ₖaₖ‖² = N·p(1 − p)·‖aₖ‖², with p the share
// of images that own it, over Σᵢ‖xᵢ − x̄‖². A feature and its flip explain the same, and
// features that do not overlap add up to the fit's share. 0 for the base (a constant
// explains no variation) and for clusters.
func (a *Analysis) Explained() []float64 {
	res := a.Result
	if res == nil || res.A == nil || res.K == 0 {
		return nil
	}
	out := make([]float64, res.K)
	if a.IsClustering() {
		return out
	}
	n, d := a.Scores.Dims()
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		floats.Add(mean, a.Scores.RawRowView(i))
	}
	floats.Scale(1/float64(n), mean)
	var total float64
	for i := 0; i < n; i++ {
		dist := floats.Distance(a.Scores.RawRowView(i), mean, 2)
		total += dist * dist
	}
	if !(total > 0) {
		return out
	}
	for k, owners := range a.Owners() {
		p := float64(owners) / float64(n)
		ak := res.A.RawRowView(k)
		out[k] = float64(n) * p * (1 - p) * floats.Dot(ak, ak) / total
	}
	return out
}

// Separation is, per feature in column order, how cleanly the images split into those
// that show it and those that do not (features.Separation, read on what the learner
// fitted: Seen when it counted objects, else the PCA scores; a reopened analysis says
// what its run said): an
// object that comes and goes separates by about 1, a change by degrees coded in two
// (exposure, a shift) by less than features.SeparationClear. NaN for the base, for a
// feature of one image, and for every cluster.
func (a *Analysis) Separation() []float64 {
	res := a.Result
	if res == nil || res.A == nil || res.K == 0 {
		return nil
	}
	if a.IsClustering() {
		out := make([]float64, res.K)
		for k := range out {
			out[k] = math.NaN()
		}
		return out
	}
	if a.Seen != nil {
		// The split as the count of objects saw it: the blur and the shifts taken out
		// keep a card's pixel jitter, spread over the scene by the PCA, out of a soft
		// light's amounts.
		seen := a.seenFor(res.Z)
		if A, ok := features.LeastSquaresA(res.Z, seen); ok {
			return features.Separation(seen, res.Z, A)
		}
	}
	if a.keptSeparation != nil && a.keptZ == res.Z {
		return slices.Clone(a.keptSeparation)
	}
	return features.Separation(a.Scores, res.Z, res.A)
}

// Reconstruction returns image i rebuilt from its code, ZA mapped back to pixels.
func (a *Analysis) Reconstruction(i int) image.Image {
	return a.pictureOfScores(a.ReconstructedScores(i))
}

// CodeReconstruction is the picture a code rebuilds, zA mapped back to pixels: that of
// a new image coded with the analysis's features (app/encoding). code holds '0' or '1'
// per feature.
func (a *Analysis) CodeReconstruction(code string) image.Image {
	return a.pictureOfScores(a.ScoresOfCode(code))
}

func (a *Analysis) pictureOfScores(s []float64) image.Image {
	ds := a.Data
	return imgproc.VectorToImage(a.PCA.Inverse(s, nil), ds.Width, ds.Height, ds.Channels)
}

// ScoresOfCode is zA for the code written as a string ('1' for each feature owned, as
// Codes writes them): the scores the code rebuilds. Characters past K are ignored.
func (a *Analysis) ScoresOfCode(code string) []float64 {
	res := a.Result
	_, d := res.A.Dims()
	out := make([]float64, d)
	for k := 0; k < min(len(code), res.K); k++ {
		if code[k] == '1' {
			floats.Add(out, res.A.RawRowView(k))
		}
	}
	return out
}

func (a *Analysis) ReconstructedScores(i int) []float64 {
	res := a.Result
	_, d := res.A.Dims()
	out := make([]float64, d)
	for k, z := range res.Z.RawRowView(i) {
		if z != 0 {
			for c, v := range res.A.RawRowView(k) {
				out[c] += v
			}
		}
	}
	return out
}

// Residuals returns, per image, the squared error ‖x_i − z_i A‖² in the algorithm's space.
func (a *Analysis) Residuals() []float64 {
	n, _ := a.Scores.Dims()
	out := make([]float64, n)
	for i := range out {
		rec := a.ReconstructedScores(i)
		x := a.Scores.RawRowView(i)
		var s float64
		for c := range x {
			d := x[c] - rec[c]
			s += d * d
		}
		out[i] = s
	}
	return out
}

// Codes returns each image's binary code as a string of 0/1, one character per feature.
func (a *Analysis) Codes() []string { return CodeStrings(a.Result.Z) }

func CodeStrings(Z *mat.Dense) []string {
	if Z == nil {
		return nil
	}
	n, k := Z.Dims()
	out := make([]string, n)
	b := make([]byte, k)
	for i := range out {
		for j, z := range Z.RawRowView(i) {
			b[j] = '0'
			if z != 0 && !math.IsNaN(z) {
				b[j] = '1'
			}
		}
		out[i] = string(b)
	}
	return out
}
