package selection

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/features"
	"featurelab/algorithms/learn"
	"featurelab/imgproc"
	"featurelab/internal/cache"
	"featurelab/internal/parallel"
)

// Pictures is what the objects rule reads of the space the scores live in, the PCA
// (pca.Model): the pictures behind a row of scores, and the maps that see them through a
// blur and shifted by a pixel.
type Pictures interface {
	// MeanPixels is the picture of the zero scores: the mean image.
	MeanPixels() []float64
	// InverseDense maps each row of scores S back to its picture's pixels.
	InverseDense(S *mat.Dense) *mat.Dense
	// BlurMetric maps scores to the scores of their pictures seen through a Gaussian
	// of sigma pixels; progress hears of the bands done.
	BlurMetric(w, h, c int, sigma float64, progress func(done, total int)) (*mat.Dense, error)
	// ShiftMaps map scores to the scores of their pictures' x- and y-derivatives.
	ShiftMaps(w, h, c int) (tx, ty *mat.Dense, err error)
}

// Objects is the objects rule on one folder's scores: it chooses K off a λ² path by
// counting the things that come and go on the scene, and puts a fit in its readable form
// (a base every image owns, features that add to it). It keeps what it worked out for
// the folder (the blurred scores, the shift maps, the fits it read) for every run on the
// same scores to share; it is safe for concurrent use.
type Objects struct {
	scores                  *mat.Dense
	pics                    Pictures // nil: scores with no pictures behind them
	width, height, channels int
	workers                 int

	smoothOnce sync.Once
	smoothed   *mat.Dense // the scores of the blurred pictures (Smoothed)
	smoothErr  error
	blurR      *mat.Dense // the blur metric the smoothed scores are seen through
	shiftOnce  sync.Once
	shiftTx    *mat.Dense // scores → scores of the x-derivative, seen through the blur
	shiftTy    *mat.Dense
	shiftErr   error

	readCache cache.Table[readKey, *objectReading] // fits read by the objects rule (readableFit)
	formCache cache.Table[[2]*mat.Dense, *Form]    // fits' readable forms (ReadableForm)
	energyMu  sync.Mutex                           // guards energies
	// energies are the feature energies (featureEnergy) of the last few readable forms
	// orient found, by their A: countsObjects reads them next, and mapping the features
	// back to pixels again would be another pass over the components.
	energies []formEnergy
}

// New is the objects rule on scores, the rows of images of width × height × channels
// whose pictures pics gives (nil when there are none: then no fit is oriented and no
// objects are counted); the reading of a fit uses up to workers goroutines (0: every
// core).
func New(scores *mat.Dense, pics Pictures, width, height, channels, workers int) *Objects {
	return &Objects{scores: scores, pics: pics, width: width, height: height, channels: channels, workers: workers}
}

// workerCount is how many goroutines the reading of a fit uses.
func (o *Objects) workerCount() int {
	if o.workers > 0 {
		return o.workers
	}
	return runtime.GOMAXPROCS(0)
}

// Blur is the Gaussian, in pixels, through which K-from-objects looks at the
// pictures while it fits: a shift of an object's sharp print by a pixel then costs much
// less than the object itself. Chosen on the generated scene folders, where it counts
// more folders right than no blur does, and a wider blur loses the stripes' texture
// (docs/DESIGN.md, "Measurements behind the code").
const Blur = 1.0

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
// divided out (the default exposure handling), a striped patch, whose diagonal stripes a shift changes
// most, can keep more than a twentieth of its owners below objectClear.
const objectQuantile = 0.1

// objectClear is the separation (features.Separation, on the blurred scores) a feature
// needs to be counted as an object. Chosen on the generated scenes, between what the
// objects separate by and what the features that model a card's ±1 px shifts, owned by
// part of its images, separate by (docs/DESIGN.md, "Measurements behind the code"):
// those are above features.SeparationClear, which only says the feature reads as
// on/off, so counting asks more.
const objectClear = 0.65

// Smoothed are the scores as the pictures look through a Gaussian of Blur
// pixels (pca.Model.BlurMetric): every fit on them is a fit of the blurred pictures.
// They are worked out once per data set, a cost of seconds on ordinary folders, for
// every run after the first to share.
// progress, when not nil, hears of the bands of the blur done (pca.Model.BlurMetric) when
// this call works them out.
func (o *Objects) Smoothed(progress func(done, total int)) (*mat.Dense, error) {
	o.smoothOnce.Do(func() {
		R, err := o.pics.BlurMetric(o.width, o.height, o.channels, Blur, progress)
		if err != nil {
			o.smoothErr = err
			return
		}
		o.blurR = R
		o.smoothed = new(mat.Dense)
		o.smoothed.Mul(o.scores, R)
	})
	return o.smoothed, o.smoothErr
}

// RefitOnScores makes res, fitted on the smoothed scores, a result on the scores
// themselves: each fit of its path keeps its Z and gets the least-squares A on the
// scores and its objective there, so its pictures and reconstructions are the images'.
// The curve, and with it the λ² path and the penalised objectives, stays the learner's:
// the path of the blurred pictures, on which each K was the best fit. A fit whose Z does
// not identify its features on the scores leaves the path.
func (o *Objects) RefitOnScores(res *learn.Result) error {
	fits := res.PathFits[:0:0]
	kept := map[int]bool{}
	for _, f := range res.PathFits {
		A, ok := features.LeastSquaresA(f.Z, o.scores)
		if !ok {
			continue
		}
		f.A, f.Objective = A, learn.ResidualSS(o.scores, f.Z, A)
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
// Count is the K that counts the things that come and go on the scene, for a run that
// chose its own K off its λ² path: the largest K of the path whose features, in their
// readable form, each read as one object (countsObjects) — but none below the widest λ²
// interval's K when every feature of that one already comes and goes (allClear). It is
// 0 — keep the widest — when the run has no path, when no K qualifies, or when most of
// the widest's features vary by degrees (a face's width, lighting): then no K counts
// objects, and the pipeline's note on K says so. Only K above above are read: a count of above or fewer
// would not be taken (the second path's count stands only where it beats the first's).
func (o *Objects) Count(res *learn.Result, seen *mat.Dense, shifts bool, above int, progress func(done, total int)) int {
	if len(res.PathFits) == 0 {
		return 0
	}
	fits := map[int]learn.PathFit{}
	for _, f := range res.PathFits {
		fits[f.K] = f
	}
	readings := map[int]*objectReading{} // each K read once: the widest is read twice
	defer o.dropEnergies()
	reading := func(k int) (*objectReading, bool) {
		f, ok := fits[k]
		if !ok {
			return nil, false
		}
		if _, done := readings[k]; !done {
			readings[k] = o.readableFit(f.Z, f.A, seen, shifts)
		}
		return readings[k], true
	}
	floor := 0 // no K below it counts objects better
	if f, ok := fits[res.K]; ok && o.surelyGradual(f.Z, f.A, seen, shifts) {
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
		if f, ok := fits[k]; !ok || readings[k] == nil && !o.mayCountObjects(f.Z, f.A, seen, shifts) {
			continue
		}
		if r, ok := reading(k); ok && r != nil && o.countsObjects(r) {
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
// the widest K is read by ShiftsMatter and Count, and the chosen one shown in its
// readable form.
func (o *Objects) readableFit(Z, A, seen *mat.Dense, shifts bool) *objectReading {
	key := readKey{Z: Z, A: A, seen: seen, shifts: shifts}
	if r, ok := o.readCache.Get(key); ok {
		return r
	}
	form := o.ReadableForm(Z, A, true)
	if form == nil {
		o.readCache.Put(key, nil)
		return nil
	}
	z := form.Z
	// Each image's small shifts of the features' pictures are no part of its amounts:
	// they blur the split of a weak object, which can read as no split with them and a
	// clean one without.
	if shifts {
		seen = features.ProjectOut(seen, o.ShiftNuisance(z, nil))
	}
	aSeen, ok := features.LeastSquaresA(z, seen)
	if !ok {
		o.readCache.Put(key, nil)
		return nil
	}
	r := &objectReading{Z: z, A: form.A, separation: features.SeparationAt(seen, z, aSeen, objectQuantile)}
	o.readCache.Put(key, r)
	return r
}

// ReadableForm is Z, A in the readable form (WithBase, then orient), made once per fit
// (formCache) and shared, not to be changed: nil when the base cannot be fitted.
//
// count says that the objects rule reads the form next (countsObjects): the oriented
// features' energies, which orient reads off the pictures it holds, are kept for it.
func (o *Objects) ReadableForm(Z, A *mat.Dense, count bool) *Form {
	key := [2]*mat.Dense{Z, A}
	if f, ok := o.formCache.Get(key); ok {
		return f
	}
	var f *Form
	if z, a, withBase := o.WithBase(Z, A); z != nil {
		if energy := o.orient(z, a, count); energy != nil {
			o.keepEnergy(a, energy)
		}
		f = &Form{Z: z, A: a, WithBase: withBase}
	}
	o.formCache.Put(key, f)
	return f
}

// ReadableForm is a fit in its readable form: the base in column 0, every feature adding
// to it; withBase is false when the fit had no base of its own and one was added.
type Form struct {
	Z, A     *mat.Dense
	WithBase bool // a feature is owned by every image: the base, in column 0
}

// WithBase is Z, A with the base in column 0 (features.WithBase), or with a base column
// added when no feature is owned by every image (withBase false): the form orient reads,
// before it reads it. It is nil when the base cannot be fitted.
func (o *Objects) WithBase(Z, A *mat.Dense) (z, a *mat.Dense, withBase bool) {
	z, a, ok := features.WithBase(o.scores, Z, A)
	if ok {
		return z, a, true
	}
	n, k := Z.Dims()
	z = mat.NewDense(n, k+1, nil)
	for i := 0; i < n; i++ {
		z.Set(i, 0, 1)
		copy(z.RawRowView(i)[1:], Z.RawRowView(i))
	}
	if a, ok = features.LeastSquaresA(z, o.scores); !ok {
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

// Forget drops the readings and forms kept from earlier runs on p: a run's own
// are what it reads twice, and a window's session would otherwise keep every fit of
// every path it ran (on 100 000 images, hundreds of MB).
func (o *Objects) Forget() {
	o.readCache.Reset()
	o.formCache.Reset()
	o.energyMu.Lock()
	defer o.energyMu.Unlock()
	o.energies = nil
}

// formEnergy is a readable form's feature energies (featureEnergy), by its A.
type formEnergy struct {
	A      *mat.Dense
	energy [][]float64
}

// energiesKept bounds the feature energies kept: Count counts a form's objects right
// after finding it, and each form's are K pictures' worth of float64 (a few megabytes at
// 320 × 240); Count drops them when it is done (dropEnergies).
const energiesKept = 2

// keepEnergy keeps energy as the feature energies of the readable form whose A is a,
// forgetting the oldest kept when there are energiesKept.
func (o *Objects) keepEnergy(a *mat.Dense, energy [][]float64) {
	o.energyMu.Lock()
	defer o.energyMu.Unlock()
	if len(o.energies) >= energiesKept {
		o.energies = slices.Delete(o.energies, 0, 1)
	}
	o.energies = append(o.energies, formEnergy{A: a, energy: energy})
}

// dropEnergies forgets the feature energies kept.
func (o *Objects) dropEnergies() {
	o.energyMu.Lock()
	defer o.energyMu.Unlock()
	o.energies = nil
}

// keptEnergy is the feature energies kept for the readable form whose A is a, if any.
func (o *Objects) keptEnergy(a *mat.Dense) [][]float64 {
	o.energyMu.Lock()
	defer o.energyMu.Unlock()
	for _, e := range o.energies {
		if e.A == a {
			return e.energy
		}
	}
	return nil
}

// mayCountObjects reports whether the readable form of the fit Z, A could count objects
// (countsObjects), judged without finding that form: every feature separates by
// objectClear in one orientation or the other (features.SeparationEitherWay), is owned
// by some images and not all, and no two features are one object twice or cut in two
// however each is turned (pairRejects in all four ways). Finding the form reads every
// feature's picture against the base, round after round (orient), and on a long λ² path
// most K fail on separation or pairs, so reading them in full would be most of the run.
// A false here is a false there; a true is decided there.
func (o *Objects) mayCountObjects(Z, A, seen *mat.Dense, shifts bool) bool {
	z, a, separation := o.separationEitherWay(Z, A, seen, shifts)
	if z == nil {
		return true // readableFit says nil, and Count goes on
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
	energy := o.featureEnergyOf(a, wanted)
	reach := make([][]bool, k)
	parallel.For(o.workerCount(), k-1, func(_, i int) {
		if wanted[i+1] {
			reach[i+1] = o.reach(energy[i+1])
		}
	})
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
func (o *Objects) surelyGradual(Z, A, seen *mat.Dense, shifts bool) bool {
	z, _, separation := o.separationEitherWay(Z, A, seen, shifts)
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
func (o *Objects) separationEitherWay(Z, A, seen *mat.Dense, shifts bool) (z, a *mat.Dense, separation []float64) {
	z, a, _ = o.WithBase(Z, A)
	if z == nil {
		return nil, nil, nil
	}
	if shifts {
		seen = features.ProjectOut(seen, o.ShiftNuisance(z, nil))
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
// as the note on K words it.
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
// pictures' shifts modelled (ShiftNuisance), the λ² path's last K can split an object
// that way, each part cleanly on/off.
func (o *Objects) countsObjects(r *objectReading) bool {
	_, k := r.Z.Dims()
	owners, count, ok := ownersOf(r.Z, r.separation)
	if !ok {
		return false
	}
	energy := o.keptEnergy(r.A)
	if energy == nil {
		energy = o.featureEnergy(r.A)
	}
	reach := make([][]bool, k) // each feature's own, side by side
	parallel.For(o.workerCount(), k-1, func(_, i int) { reach[i+1] = o.reach(energy[i+1]) })
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
func (o *Objects) featureEnergy(A *mat.Dense) [][]float64 { return o.featureEnergyOf(A, nil) }

// featureEnergyOf is featureEnergy of the features wanted says (every one for nil), the
// others left nil: mapping a feature back to its picture is most of the cost.
func (o *Objects) featureEnergyOf(A *mat.Dense, wanted []bool) [][]float64 {
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
	pix := o.pics.InverseDense(S)
	zero := pix.RawRowView(0)
	out := make([][]float64, k)
	for i, j := range rows {
		out[j] = o.energyOf(pix.RawRowView(i+1), zero)
	}
	return out
}

// energyOf is the picture row's squared value at every pixel, summed over the channels,
// measured from zero (the mean picture, or nil for a picture without it).
func (o *Objects) energyOf(row, zero []float64) []float64 {
	pixels, c := o.width*o.height, o.channels
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
func (o *Objects) reach(e []float64) []bool {
	w, h := o.width, o.height
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

// ShiftsMatter reports whether a λ² path (res, fitted on seen and refitted on the
// scores, k objects counted on it, 0 for none) is worth fitting again with the images'
// small shifts of the features' pictures modelled as a nuisance (ShiftNuisance), to
// count the objects on both: when the path goes on by two K or more past the objects
// (a nuisance is taking features), and its widest K does not change mostly by degrees
// (faces: mostlyGradual), where there are no objects to count. On the generated scene
// folders the shifts are what hides a weak object — a card's ±1 px jitter outweighs a
// shadow on dark water, so the shadow gets no feature at any K — and the fit with
// shifts modelled finds it. Elsewhere modelling shifts does harm, and the plain path's
// larger count stands: tetris's 6 × 6 pictures make a pixel's shift another picture,
// and the cards' pips a few pixels apart make one pip's derivative much of its
// neighbour; both lose features to the shifts.
func (o *Objects) ShiftsMatter(res *learn.Result, seen *mat.Dense, k int) bool {
	last := 0
	for _, f := range res.PathFits {
		last = max(last, f.K)
	}
	if k == 0 {
		k = res.K
	}
	if last-k < 2 {
		return false
	}
	for _, f := range res.PathFits {
		if f.K != res.K {
			continue
		}
		r := o.readableFit(f.Z, f.A, seen, false)
		return r != nil && !mostlyGradual(r)
	}
	return false
}

// ShiftMaps are the maps from an image's scores to the smoothed scores of its picture's
// x- and y-derivatives (pca.Model.ShiftMaps followed by the blur metric), worked out once.
func (o *Objects) ShiftMaps() (tx, ty *mat.Dense, err error) {
	if _, err := o.Smoothed(nil); err != nil {
		return nil, nil, err
	}
	o.shiftOnce.Do(func() {
		x, y, err := o.pics.ShiftMaps(o.width, o.height, o.channels)
		if err != nil {
			o.shiftErr = err
			return
		}
		o.shiftTx, o.shiftTy = new(mat.Dense), new(mat.Dense)
		o.shiftTx.Mul(x, o.blurR)
		o.shiftTy.Mul(y, o.blurR)
	})
	return o.shiftTx, o.shiftTy, o.shiftErr
}

// ShiftNuisance is learn.Options.Nuisance for a fit on the smoothed scores: the
// smoothed scores of the x- and y-derivatives of each feature's picture, whose A is
// refitted on the scores with the fit's Z. A small shift of a feature's picture in an
// image is, to first order, a combination of these two rows.
func (o *Objects) ShiftNuisance(Z, _ *mat.Dense) *mat.Dense {
	tx, ty, err := o.ShiftMaps()
	if err != nil {
		return nil
	}
	A, ok := features.LeastSquaresA(Z, o.scores)
	if !ok {
		return nil
	}
	k, d := A.Dims()
	maps := []*mat.Dense{tx, ty}
	out := mat.NewDense(len(maps)*k, d, nil)
	for m, t := range maps {
		var b mat.Dense
		b.Mul(A, t)
		for j := 0; j < k; j++ {
			copy(out.RawRowView(len(maps)*j+m), b.RawRowView(j))
		}
	}
	return out
}

// orient flips, in Z and A with the base in column 0, every feature whose picture holds
// less than the base where they differ (imgproc.Holds: less outline, the light of a
// shadow the base has, or the darkness of a lamp's light it lacks): such a feature is
// the scene without an object that the base holds, and its flip adds the object to a base
// without it. The fit is unchanged. It flips the clearest case first and judges the rest
// again against the base that leaves, since a base rid of one object reads the others
// better; it stops when every feature adds, or after 2K flips should two features keep
// trading places. The pictures are mapped back once: a flip adds the feature's picture
// to the base's and turns its own over, as it does their scores. With energy, it returns
// the oriented features' energies (featureEnergy, row 0 nil), read off those pictures;
// else, or when there are no pictures to read, nil.
func (o *Objects) orient(Z, A *mat.Dense, energy bool) [][]float64 {
	if o.pics == nil {
		return nil // scores with no pictures behind them (a test's): nothing to look at
	}
	n, k := Z.Dims()
	pix := o.pics.InverseDense(A)
	// Row 0 the base's picture; rows 1… each feature's own, without the mean.
	mean := o.pics.MeanPixels()
	for j := 1; j < k; j++ {
		floats.Sub(pix.RawRowView(j), mean)
	}
	base := pix.RawRowView(0)
	// Where each feature acts, and its own blurs there, do not change with the base.
	changes := make([]*imgproc.Change, k)
	scratch := make([]imgproc.Picture, o.workerCount())
	parallel.For(len(scratch), k-1, func(w, i int) {
		changes[i+1] = imgproc.NewChange(pix.RawRowView(i+1), o.width, o.height, o.channels, &scratch[w])
	})
	holds := make([]float64, k)
	energies := func() [][]float64 {
		if !energy {
			return nil
		}
		out := make([][]float64, k)
		for j := 1; j < k; j++ {
			out[j] = o.energyOf(pix.RawRowView(j), nil)
		}
		return out
	}
	without := imgproc.NewPicture(base, o.width, o.height, o.channels)
	if without == nil {
		return energies() // pictures too small to read (under 2 × 2): the form as found stands
	}
	for round := 0; round < 2*k; round++ {
		without.Changed()
		without.PrepareFor(changes[1:], o.workerCount()) // read by every feature's comparison at once
		parallel.For(o.workerCount(), k-1, func(_, i int) {
			holds[i+1] = without.HoldsChange(changes[i+1])
		})
		worst, most := -1, 0.0
		for j := 1; j < k; j++ {
			if h := -holds[j]; h > most {
				worst, most = j, h
			}
		}
		if worst < 0 {
			return energies()
		}
		for i := 0; i < n; i++ {
			Z.Set(i, worst, 1-Z.At(i, worst))
		}
		floats.Add(A.RawRowView(0), A.RawRowView(worst))
		floats.Scale(-1, A.RawRowView(worst))
		floats.Add(base, pix.RawRowView(worst))
		floats.Scale(-1, pix.RawRowView(worst))
		changes[worst].Negate()
	}
	return energies()
}
