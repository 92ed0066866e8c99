package pipeline

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/imgproc"
)

// objectBlur is the Gaussian, in pixels, through which K-from-objects looks at the
// pictures while it fits: a shift of an object's sharp print by a pixel then costs much
// less than the object itself. Chosen on the generated scene folders, where it counts
// more folders right than no blur does, and a wider blur loses the stripes' texture
// (docs/DESIGN.md, "Measurements behind the code").
const objectBlur = 1.0

// Two features are one object seen twice, or one object cut in two, when half the
// picture energy of each lies where the other acts (within objectReach pixels of where
// it carries a tenth of its peak) and their owners are nested or apart up to objectSlack
// of the smaller set. Each only: on the built-in cards, pips of different cards sit half
// in each other's place with owners apart, and one-way overlap would count them as one.
const (
	objectOverlap = 0.5
	objectReach   = 2
	objectPeak    = 0.1
	objectSlack   = 0.05
)

// objectQuantile is the share of each side a separation leaves out when the objects rule
// reads it (features.SeparationAt): a tenth, where the display leaves out a twentieth. An
// object's copies shifted by a pixel are among its owners' least amounts; with exposure
// divided out (ExposureAuto), a striped patch, whose diagonal stripes a shift changes
// most, can keep more than a twentieth of its owners below objectClear.
const objectQuantile = 0.1

// objectClear is the separation (features.Separation, on the blurred scores) a feature
// needs to be counted as an object. Chosen on the generated scenes, between what the
// objects separate by and what the features that model a card's ±1 px shifts, owned by
// part of its images, separate by (docs/DESIGN.md, "Measurements behind the code"):
// those are above features.SeparationClear, which only says the feature reads as
// on/off, so counting asks more.
const objectClear = 0.65

// countsObjectsFor reports whether a run of algo with opt chooses its K by counting
// objects (Options.KFrom): a learner that walks a λ² path, with no λ² given, on PCA
// scores with pictures behind them.
func (p *Prepared) countsObjectsFor(alg *algorithms.Algorithm, desc Description, opt learn.Options) bool {
	return alg.ChoosesK(opt) && opt.KFrom != learn.KFromWidest &&
		(desc.Kind == "" || desc.Kind == FeaturesPCA) && p.PCA != nil && !p.PCA.Identity && p.Data != nil
}

// smoothedScores are the scores as the pictures look through a Gaussian of objectBlur
// pixels (pca.Model.BlurMetric): every fit on them is a fit of the blurred pictures.
// They are worked out once per data set, a cost of seconds on ordinary folders, for
// every run after the first to share.
// progress, when not nil, hears of the bands of the blur done (pca.Model.BlurMetric) when
// this call works them out.
func (p *Prepared) smoothedScores(progress func(done, total int)) (*mat.Dense, error) {
	p.smoothOnce.Do(func() {
		ds := p.Data
		R, err := p.PCA.BlurMetric(ds.Width, ds.Height, ds.Channels, objectBlur, progress)
		if err != nil {
			p.smoothErr = err
			return
		}
		p.blurR = R
		p.smoothed = new(mat.Dense)
		p.smoothed.Mul(p.Scores, R)
	})
	return p.smoothed, p.smoothErr
}

// refitOnScores makes res, fitted on the smoothed scores, a result on the scores
// themselves: each fit of its path keeps its Z and gets the least-squares A on the
// scores and its objective there, so its pictures and reconstructions are the images'.
// The curve, and with it the λ² path and the penalised objectives, stays the learner's:
// the path of the blurred pictures, on which each K was the best fit. A fit whose Z does
// not identify its features on the scores leaves the path.
func (p *Prepared) refitOnScores(res *learn.Result) error {
	fits := res.PathFits[:0:0]
	kept := map[int]bool{}
	for _, f := range res.PathFits {
		A, ok := features.LeastSquaresA(f.Z, p.Scores)
		if !ok {
			continue
		}
		f.A, f.Objective = A, learn.ResidualSS(p.Scores, f.Z, A)
		fits = append(fits, f)
		kept[f.K] = true
	}
	if len(fits) == 0 {
		return errors.New("no K of the λ² path identifies its features on the scores")
	}
	if len(fits) == len(res.PathFits) {
		res.PathFits = fits
		return nil
	}
	// A K with no fit leaves the curve too, so that the path offers only what it can
	// show, and the learner's K is chosen again if it was one of them.
	curve := res.Curve[:0:0]
	for _, c := range res.Curve {
		if kept[c.K] {
			curve = append(curve, c)
		}
	}
	res.PathFits, res.Curve = fits, curve
	if !kept[res.K] {
		path := features.LambdaPath(curve)
		i, _, ok := features.MostStable(path)
		if !ok {
			i = len(path) - 1
		}
		res.K = path[i].K
	}
	return nil
}

// The widest interval is no count either way: on the scene folders of internal/scenes
// (four objects each) its K is rarely the objects', with extra features modelling a
// card's pixel shifts or cutting an object in two, or an object in most of the pictures
// left in the base.
//
// objectK is the K that counts the things that come and go on the scene, for a run that
// chose its own K off its λ² path: the largest K of the path whose features, in their
// readable form, each read as one object (countsObjects) — but none below the widest λ²
// interval's K when every feature of that one already comes and goes (allClear). It is
// 0 — keep the widest — when the run has no path, when no K qualifies, or when most of
// the widest's features vary by degrees (a face's width, lighting): then no K counts
// objects, and KNote says so. Only K above above are read: a count of above or fewer
// would not be taken (the second path's count stands only where it beats the first's).
func (p *Prepared) objectK(res *learn.Result, seen *mat.Dense, shifts bool, above int, progress func(done, total int)) int {
	if len(res.PathFits) == 0 {
		return 0
	}
	fits := map[int]learn.PathFit{}
	for _, f := range res.PathFits {
		fits[f.K] = f
	}
	readings := map[int]*objectReading{} // each K read once: the widest is read twice
	defer p.dropEnergies()
	reading := func(k int) (*objectReading, bool) {
		f, ok := fits[k]
		if !ok {
			return nil, false
		}
		if _, done := readings[k]; !done {
			readings[k] = p.readableFit(f.Z, f.A, seen, shifts)
		}
		return readings[k], true
	}
	floor := 0 // no K below it counts objects better
	if f, ok := fits[res.K]; ok && p.surelyGradual(f.Z, f.A, seen, shifts) {
		return 0 // mostlyGradual, known without finding the readable form
	}
	if r, ok := reading(res.K); ok {
		if mostlyGradual(r) {
			return 0
		}
		if allClear(r) {
			floor = res.K
		}
	}
	path := features.LambdaPath(res.Curve)
	for i := len(path) - 1; i >= 0 && path[i].K >= floor && path[i].K > above; i-- {
		if progress != nil {
			progress(len(path)-1-i, len(path))
		}
		k := path[i].K
		if f, ok := fits[k]; !ok || readings[k] == nil && !p.mayCountObjects(f.Z, f.A, seen, shifts) {
			continue
		}
		if r, ok := reading(k); ok && r != nil && p.countsObjects(r) {
			return k
		}
	}
	return 0
}

// objectReading is a fit in its readable form (base in column 0, every feature adding
// to it) with each feature's separation.
type objectReading struct {
	Z, A       *mat.Dense
	separation []float64
}

// readableFit is Z, A (a fit to the scores) in the readable form, with a base column
// added when no feature is owned by every image, and each feature's separation as seen
// in the scores seen (the smoothed ones the fit was found on: a card's pixel shifts blur
// its split in the scores themselves); nil when the base cannot be fitted (a singular Z).
// A fit read once is not read again (readCache), nor its form found again (formCache):
// the widest K is read by shiftsMatter and objectK, and the chosen one shown by readable.
func (p *Prepared) readableFit(Z, A, seen *mat.Dense, shifts bool) *objectReading {
	key := readKey{Z: Z, A: A, seen: seen, shifts: shifts}
	if r, ok := p.cachedReading(key); ok {
		return r
	}
	form := p.readableForm(Z, A, true)
	if form == nil {
		p.keepReading(key, nil)
		return nil
	}
	z := form.Z
	// Each image's small shifts of the features' pictures are no part of its amounts:
	// they blur the split of a weak object, which can read as no split with them and a
	// clean one without.
	if shifts {
		seen = features.ProjectOut(seen, p.shiftNuisance(z, nil))
	}
	aSeen, ok := features.LeastSquaresA(z, seen)
	if !ok {
		p.keepReading(key, nil)
		return nil
	}
	r := &objectReading{Z: z, A: form.A, separation: features.SeparationAt(seen, z, aSeen, objectQuantile)}
	p.keepReading(key, r)
	return r
}

// readableForm is Z, A in the readable form (withBase, then orient), made once per fit
// (formCache) and shared, not to be changed: nil when the base cannot be fitted.
//
// count says that the objects rule reads the form next (countsObjects): the oriented
// features' energies, which orient reads off the pictures it holds, are kept for it.
func (p *Prepared) readableForm(Z, A *mat.Dense, count bool) *readableForm {
	key := [2]*mat.Dense{Z, A}
	p.readMu.Lock()
	f, ok := p.formCache[key]
	p.readMu.Unlock()
	if ok {
		return f
	}
	if z, a, withBase := p.withBase(Z, A); z != nil {
		if energy := p.orient(z, a, count); energy != nil {
			p.keepEnergy(a, energy)
		}
		f = &readableForm{Z: z, A: a, withBase: withBase}
	}
	p.readMu.Lock()
	defer p.readMu.Unlock()
	if p.formCache == nil || len(p.formCache) >= readCacheSize {
		p.formCache = map[[2]*mat.Dense]*readableForm{}
	}
	p.formCache[key] = f
	return f
}

// readableForm is a fit in its readable form: the base in column 0, every feature adding
// to it; withBase is false when the fit had no base of its own and one was added.
type readableForm struct {
	Z, A     *mat.Dense
	withBase bool
}

// withBase is Z, A with the base in column 0 (features.WithBase), or with a base column
// added when no feature is owned by every image (withBase false): the form orient reads,
// before it reads it. It is nil when the base cannot be fitted.
func (p *Prepared) withBase(Z, A *mat.Dense) (z, a *mat.Dense, withBase bool) {
	z, a, ok := features.WithBase(p.Scores, Z, A)
	if ok {
		return z, a, true
	}
	n, k := Z.Dims()
	z = mat.NewDense(n, k+1, nil)
	for i := 0; i < n; i++ {
		z.Set(i, 0, 1)
		copy(z.RawRowView(i)[1:], Z.RawRowView(i))
	}
	if a, ok = features.LeastSquaresA(z, p.Scores); !ok {
		return nil, nil, false
	}
	return z, a, false
}

// readKey names a reading of a fit: its Z and A (the fit's own matrices, which the
// caches keep alive, so that no other fit takes their place), the scores it is seen in
// and whether its shifts are taken out.
type readKey struct {
	Z, A, seen *mat.Dense
	shifts     bool
}

// readCacheSize bounds the readings and forms kept: a λ² path has a few dozen K.
const readCacheSize = 256

// forgetReadings drops the readings and forms kept from earlier runs on p: a run's own
// are what it reads twice, and a window's session would otherwise keep every fit of
// every path it ran (on 100 000 images, hundreds of MB).
func (p *Prepared) forgetReadings() {
	p.readMu.Lock()
	defer p.readMu.Unlock()
	p.readCache, p.formCache, p.energies = nil, nil, nil
}

// formEnergy is a readable form's feature energies (featureEnergy), by its A.
type formEnergy struct {
	A      *mat.Dense
	energy [][]float64
}

// energiesKept bounds the feature energies kept: objectK counts a form's objects right
// after finding it, and each form's are K pictures' worth of float64 (a few megabytes at
// 320 × 240); objectK drops them when it is done (dropEnergies).
const energiesKept = 2

// keepEnergy keeps energy as the feature energies of the readable form whose A is a,
// forgetting the oldest kept when there are energiesKept.
func (p *Prepared) keepEnergy(a *mat.Dense, energy [][]float64) {
	p.readMu.Lock()
	defer p.readMu.Unlock()
	if len(p.energies) >= energiesKept {
		p.energies = slices.Delete(p.energies, 0, 1)
	}
	p.energies = append(p.energies, formEnergy{A: a, energy: energy})
}

// dropEnergies forgets the feature energies kept.
func (p *Prepared) dropEnergies() {
	p.readMu.Lock()
	defer p.readMu.Unlock()
	p.energies = nil
}

// keptEnergy is the feature energies kept for the readable form whose A is a, if any.
func (p *Prepared) keptEnergy(a *mat.Dense) [][]float64 {
	p.readMu.Lock()
	defer p.readMu.Unlock()
	for _, e := range p.energies {
		if e.A == a {
			return e.energy
		}
	}
	return nil
}

// cachedReading is the reading of key made before, if any.
func (p *Prepared) cachedReading(key readKey) (*objectReading, bool) {
	p.readMu.Lock()
	defer p.readMu.Unlock()
	r, ok := p.readCache[key]
	return r, ok
}

// keepReading keeps r as key's reading, forgetting the others when there are too many.
func (p *Prepared) keepReading(key readKey, r *objectReading) {
	p.readMu.Lock()
	defer p.readMu.Unlock()
	if p.readCache == nil || len(p.readCache) >= readCacheSize {
		p.readCache = map[readKey]*objectReading{}
	}
	p.readCache[key] = r
}

// mayCountObjects reports whether the readable form of the fit Z, A could count objects
// (countsObjects), judged without finding that form: every feature separates by
// objectClear in one orientation or the other (features.SeparationEitherWay), is owned
// by some images and not all, and no two features are one object twice or cut in two
// however each is turned (pairRejects in all four ways). Finding the form reads every
// feature's picture against the base, round after round (orient), and on a long λ² path
// most K fail on separation or pairs, so reading them in full would be most of the run.
// A false here is a false there; a true is decided there.
func (p *Prepared) mayCountObjects(Z, A, seen *mat.Dense, shifts bool) bool {
	z, a, separation := p.separationEitherWay(Z, A, seen, shifts)
	if z == nil {
		return true // readableFit says nil, and objectK goes on
	}
	// Found on the form as found, the figures here differ from the readable form's by
	// rounding: a feature or pair is refused only clear of its threshold by refuseMargin.
	for j := range separation {
		separation[j] += refuseMargin
	}
	n, k := z.Dims()
	owners, count, ok := ownersOf(z, separation)
	if !ok {
		return false
	}
	// Only a pair nested (or hardly sharing owners) however it is turned can be refused
	// in all four ways, whatever its pictures: the pictures of the others are not needed.
	type pair struct{ f, g int }
	var candidates []pair
	wanted := make([]bool, k)
	for f := 1; f < k; f++ {
		for g := f + 1; g < k; g++ {
			both, onlyF, onlyG := shared(owners[f], owners[g])
			neither := n - both - onlyF - onlyG
			cf, cg := count[f], count[g]
			if nestedOrApart(both, onlyF, onlyG, cf, cg) && nestedOrApart(onlyG, neither, both, n-cf, cg) &&
				nestedOrApart(onlyF, both, neither, cf, n-cg) && nestedOrApart(neither, onlyG, onlyF, n-cf, n-cg) {
				candidates = append(candidates, pair{f, g})
				wanted[f], wanted[g] = true, true
			}
		}
	}
	if len(candidates) == 0 {
		return true
	}
	energy := p.featureEnergyOf(a, wanted)
	reach := make([][]bool, k)
	for j := 1; j < k; j++ {
		if wanted[j] {
			reach[j] = p.reach(energy[j])
		}
	}
	for _, c := range candidates {
		f, g := c.f, c.g
		inF, inG := energyWithin(reach[f], energy[g]), energyWithin(reach[g], energy[f])
		if math.Abs(inF-objectOverlap) < refuseMargin || math.Abs(inG-objectOverlap) < refuseMargin {
			continue // on the threshold: the readable form decides
		}
		both, onlyF, onlyG := shared(owners[f], owners[g])
		neither := n - both - onlyF - onlyG
		cf, cg := count[f], count[g]
		if pairRejects(inF, inG, both, onlyF, onlyG, cf, cg) &&
			pairRejects(inF, inG, onlyG, neither, both, n-cf, cg) && // f turned
			pairRejects(inF, inG, onlyF, both, neither, cf, n-cg) && // g turned
			pairRejects(inF, inG, neither, onlyG, onlyF, n-cf, n-cg) { // both
			return false
		}
	}
	return true
}

// surelyGradual reports whether the readable form of the fit Z, A is mostlyGradual,
// judged without finding that form: a feature whose separation is below
// features.SeparationClear in both orientations (features.SeparationEitherWay, clear of
// the threshold by refuseMargin) is below it in the readable form. False says nothing.
// Finding the readable form of a large K only to read it as gradual is most of a second
// path's count on a folder with no objects.
func (p *Prepared) surelyGradual(Z, A, seen *mat.Dense, shifts bool) bool {
	z, _, separation := p.separationEitherWay(Z, A, seen, shifts)
	if z == nil {
		return false
	}
	gradual := 0
	for _, s := range separation[1:] {
		if s+refuseMargin < features.SeparationClear { // NaN: not sure
			gradual++
		}
	}
	return 2*gradual > len(separation)-1
}

// separationEitherWay is the fit Z, A with the base in column 0 (withBase) and each
// feature's separation either way (features.SeparationEitherWay) as seen in seen, the
// small shifts of its features taken out with shifts: what a K is refused on before its
// readable form is found (mayCountObjects, surelyGradual). z is nil when the base or
// the features in seen cannot be fitted: then the readable form decides.
func (p *Prepared) separationEitherWay(Z, A, seen *mat.Dense, shifts bool) (z, a *mat.Dense, separation []float64) {
	z, a, _ = p.withBase(Z, A)
	if z == nil {
		return nil, nil, nil
	}
	if shifts {
		seen = features.ProjectOut(seen, p.shiftNuisance(z, nil))
	}
	aSeen, ok := features.LeastSquaresA(z, seen)
	if !ok {
		return nil, nil, nil
	}
	return z, a, features.SeparationEitherWay(seen, z, aSeen, objectQuantile)
}

// refuseMargin is how far from its threshold a figure of mayCountObjects must be to refuse
// a K: far more than the rounding between the two forms' figures (1e-12 and below).
const refuseMargin = 1e-9

// nestedOrApart reports whether two features' owners, counted, are nested or hardly
// shared: without that, pairRejects says no whatever their pictures.
func nestedOrApart(both, onlyA, onlyB, countA, countB int) bool {
	slack := objectSlack * float64(min(countA, countB))
	return float64(onlyA) <= slack || float64(onlyB) <= slack || float64(both) <= slack
}

// ownersOf is, per feature of z (the base aside), its owners and their number; false
// when a feature is not on/off by objectClear or is owned by no image or by all.
func ownersOf(z *mat.Dense, separation []float64) (owners [][]bool, count []int, ok bool) {
	n, k := z.Dims()
	owners = make([][]bool, k)
	count = make([]int, k)
	for j := 1; j < k; j++ {
		if !(separation[j] >= objectClear) {
			return nil, nil, false
		}
		owners[j] = make([]bool, n)
		for i := 0; i < n; i++ {
			if z.At(i, j) != 0 {
				owners[j][i] = true
				count[j]++
			}
		}
		if count[j] == 0 || count[j] == n {
			return nil, nil, false
		}
	}
	return owners, count, true
}

// shared counts the images two features both own, and those only one owns.
func shared(a, b []bool) (both, onlyA, onlyB int) {
	for i := range a {
		switch {
		case a[i] && b[i]:
			both++
		case a[i]:
			onlyA++
		case b[i]:
			onlyB++
		}
	}
	return both, onlyA, onlyB
}

// pairRejects reports whether two features, with shares inA and inB of each one's
// picture energy where the other acts and the owners counted, are one object: seen
// twice or a variant of its outline (each mostly where the other acts, owners nested or
// hardly shared), or cut in two (one mostly where the other acts, owners nested).
func pairRejects(inA, inB float64, both, onlyA, onlyB, countA, countB int) bool {
	slack := objectSlack * float64(min(countA, countB))
	nested := float64(onlyA) <= slack || float64(onlyB) <= slack
	if math.Min(inA, inB) < objectOverlap {
		// Apart, unless one lies mostly where the other acts with its owners nested: a
		// part of the other.
		return math.Max(inA, inB) >= objectOverlap && nested
	}
	return float64(both) <= slack || nested
}

// allClear reports whether every feature of r (the base aside) comes and goes by
// objectClear's margin: then the widest interval's K counts no nuisance, and stands.
// On the built-in cards, pips of several cards share places and owners, yet each of the
// widest K's features is clearly on/off.
func allClear(r *objectReading) bool {
	if r == nil {
		return false
	}
	for _, s := range r.separation[1:] {
		if !(s >= objectClear) {
			return false
		}
	}
	return true
}

// mostlyGradual reports whether most of r's features (the base aside) vary by degrees,
// as KNote words it.
func mostlyGradual(r *objectReading) bool {
	if r == nil {
		return false
	}
	gradual, counted := features.Gradual(r.separation, 0)
	return counted > 0 && 2*gradual > counted
}

// countsObjects reports whether every feature of r reads as one object: on/off
// (separation at least objectClear, owned by some images and not all),
// and no two of them acting on the same pixels with owners nested (one object twice, a
// variant of its outline) or apart (one object cut in two). One feature lying mostly
// where another acts, with owners nested, is no object of its own either: with the
// pictures' shifts modelled (shiftNuisance), the λ² path's last K can split an object
// that way, each part cleanly on/off.
func (p *Prepared) countsObjects(r *objectReading) bool {
	_, k := r.Z.Dims()
	owners, count, ok := ownersOf(r.Z, r.separation)
	if !ok {
		return false
	}
	energy := p.keptEnergy(r.A)
	if energy == nil {
		energy = p.featureEnergy(r.A)
	}
	reach := make([][]bool, k)
	for a := 1; a < k; a++ {
		reach[a] = p.reach(energy[a])
	}
	for a := 1; a < k; a++ {
		for b := a + 1; b < k; b++ {
			inA, inB := energyWithin(reach[a], energy[b]), energyWithin(reach[b], energy[a])
			both, onlyA, onlyB := shared(owners[a], owners[b])
			if pairRejects(inA, inB, both, onlyA, onlyB, count[a], count[b]) {
				return false
			}
		}
	}
	return true
}

// featureEnergy is, per feature of A (row 0, the base, left nil), its picture's squared
// value at every pixel summed over the channels.
func (p *Prepared) featureEnergy(A *mat.Dense) [][]float64 { return p.featureEnergyOf(A, nil) }

// featureEnergyOf is featureEnergy of the features wanted says (every one for nil), the
// others left nil: mapping a feature back to its picture is most of the cost.
func (p *Prepared) featureEnergyOf(A *mat.Dense, wanted []bool) [][]float64 {
	k, d := A.Dims()
	var rows []int
	for j := 1; j < k; j++ {
		if wanted == nil || wanted[j] {
			rows = append(rows, j)
		}
	}
	S := mat.NewDense(len(rows)+1, d, nil) // row 0 zero: the mean, which InverseDense adds
	for i, j := range rows {
		S.SetRow(i+1, A.RawRowView(j))
	}
	pix := p.PCA.InverseDense(S)
	zero := pix.RawRowView(0)
	out := make([][]float64, k)
	for i, j := range rows {
		out[j] = p.energyOf(pix.RawRowView(i+1), zero)
	}
	return out
}

// energyOf is the picture row's squared value at every pixel, summed over the channels,
// measured from zero (the mean picture, or nil for a picture without it).
func (p *Prepared) energyOf(row, zero []float64) []float64 {
	ds := p.Data
	pixels, c := ds.Width*ds.Height, ds.Channels
	e := make([]float64, pixels)
	for q := range e {
		for ch := 0; ch < c; ch++ {
			v := row[q*c+ch]
			if zero != nil {
				v -= zero[q*c+ch]
			}
			e[q] += v * v
		}
	}
	return e
}

// reach is, per feature energy, where it acts: within objectReach pixels of a pixel
// where it has at least objectPeak of its peak energy.
func (p *Prepared) reach(e []float64) []bool {
	w, h := p.Data.Width, p.Data.Height
	peak := 0.0
	for _, v := range e {
		peak = math.Max(peak, v)
	}
	strong := make([]bool, w*h)
	if peak == 0 {
		return strong
	}
	for q, v := range e {
		strong[q] = v >= objectPeak*peak
	}
	return imgproc.Dilate(strong, w, h, objectReach)
}

// energyWithin is the share of the energy e that lies where in says.
func energyWithin(in []bool, e []float64) float64 {
	var total, inside float64
	for q, v := range e {
		total += v
		if in[q] {
			inside += v
		}
	}
	if total == 0 {
		return 0
	}
	return inside / total
}
