package ibp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// Gibbs runs the collapsed Gibbs sampler of Griffiths & Ghahramani (2005) for the
// linear-Gaussian infinite latent feature model, as described by Liu & Li (Alg. 1):
// X = ZA + noise with Z ~ IBP(α), A ~ N(0, σ_A²), noise ~ N(0, σ_X²), A integrated out,
// α ~ Gamma(1, 1), σ_X², σ_A² ~ InvGamma(1, 1). Under opt.AlphaPrior learn.AlphaTied, α is
// not drawn but tied to σ_X by α = exp(−λ²/2σ_X²) with λ² = opt.Lambda2 (MAD-Bayes §3.1),
// so that a feature costs what it costs BP-means at λ²; σ_X's Metropolis step then
// weighs the prior of Z, which depends on σ_X through α. Each sweep resamples every row of Z in a
// random order (shared features by Gibbs, then up to 4 new features), then α | Z, then
// log σ_X and log σ_A by random-walk Metropolis whose step sizes adapt during the first
// half of the sweeps (burn-in).
//
// Every chain starts from opt.Init: a draw from the IBP(α₀) prior (default), one feature
// owned by every row, a BP-means result ("bpmeans"), or opt.InitZ.
// opt.Sweeps (default 1000) sweeps run in each of opt.Chains (default 1) chains, in
// parallel on opt.Workers; chain c draws from learn.RestartRNG(opt.Seed, c), so the result
// does not depend on the number of workers. The reported chain is the one whose best
// sample has the highest log joint. Result.Z is its final allocation and Result.A the
// posterior mean of the features given that Z, (Z'Z + σ_X²/σ_A² I)⁻¹Z'X, with twin
// features (owned by the same rows) merged into one whose row is their sum; Alpha, SigmaX,
// SigmaA and KHistogram summarise the second half of its sweeps, and ZProbability gives
// each image's probability of owning each feature of Z over them (samples.ownership).
// RestartObjectives holds
// every chain's least-squares ‖X − ZA‖²_F for its final Z.
//
// Besides the row-wise Gibbs updates of Liu & Li, each sweep draws the shared features
// of a row in random blocks of up to 6 jointly, and proposes column moves (moves.go)
// that re-express features without changing the fit; both leave the posterior unchanged
// and let the chain leave the combination-feature modes that row-wise flips cannot.
// Under the tied prior there are no pair moves, which re-express two features as their
// sum or difference: the chains keep the features they start with, as objects, unless
// the rows' own draws change them.
// No sampler of this kind is guaranteed to find the best mode in a fixed number of
// sweeps; more Chains make it likelier.
// Objective is the least-squares ‖X − ZA‖²_F of Z, as for the MAD-Bayes learners, and
// BPObjective adds opt.Lambda2·K; PosteriorObjective is ‖X − ZA‖²_F with the posterior-mean
// A the result holds. A run that ends with no
// features returns empty Z and A. Progress reports Stage "sweep".
func Gibbs(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	return gibbs(ctx, X, opt, defaultConfig())
}

// settings are the validated run parameters.
type settings struct {
	sweeps, chains int
	alpha, sx, sa  float64 // starting values
	tie            float64 // λ² of AlphaTied, 0 under AlphaGamma
	init           string
	z0             []float64 // "given": N×k0 flat
	k0             int
}

func settingsFrom(X *mat.Dense, opt learn.Options) (settings, error) {
	st := settings{sweeps: opt.Sweeps, chains: opt.Chains, alpha: opt.Alpha0,
		sx: opt.SigmaX0, sa: opt.SigmaA0, init: opt.Init}
	if err := learn.CheckData(X); err != nil {
		return st, err
	}
	n, _ := X.Dims()
	if opt.ReportOn != nil {
		if r, c := opt.ReportOn.Dims(); r != n || c != X.RawMatrix().Cols {
			return st, fmt.Errorf("the data to report on is %d×%d, the data sampled %d×%d", r, c, n, X.RawMatrix().Cols)
		}
	}
	switch {
	case st.sweeps < 0:
		return st, fmt.Errorf("sweeps must be ≥ 0, got %d", st.sweeps)
	case st.chains < 0:
		return st, fmt.Errorf("chains must be ≥ 0, got %d", st.chains)
	}
	if err := learn.CheckWorkers(opt.Workers); err != nil {
		return st, err
	}
	if err := learn.CheckLambda2(opt.Lambda2); err != nil {
		return st, err
	}
	switch opt.AlphaPrior {
	case "", learn.AlphaGamma:
	case learn.AlphaTied:
		if !(opt.Lambda2 > 0) {
			return st, fmt.Errorf("the %s prior on α needs λ² > 0, got %v", learn.AlphaTied, opt.Lambda2)
		}
		st.tie = opt.Lambda2
	default:
		return st, fmt.Errorf("the prior on α must be %s or %s, got %q", learn.AlphaGamma, learn.AlphaTied, opt.AlphaPrior)
	}
	if st.sweeps == 0 {
		st.sweeps = DefaultSweeps
	}
	if st.chains == 0 {
		st.chains = 1
	}
	// σ_X and σ_A start at the data's own scale, the root mean square of X. A start far
	// above it (σ = 1 on PCA scores of a much smaller spread, as the tabletop photos'
	// are) lets the first sweep drown every feature in noise, and K = 0 is nearly
	// absorbing: α then shrinks, and a feature born for one row costs more in the
	// marginal likelihood than it explains (docs/DESIGN.md, "Measurements behind the code").
	scale := rms(X)
	if !(scale > 0) {
		scale = 1
	}
	for _, p := range []struct {
		name string
		v    *float64
		def  float64
	}{{"alpha0", &st.alpha, 1}, {"sigmax0", &st.sx, scale}, {"sigmaa0", &st.sa, scale}} {
		switch {
		case *p.v == 0:
			*p.v = p.def
		case !(*p.v > 0) || math.IsInf(*p.v, 0):
			return st, fmt.Errorf("%s must be a finite number > 0, got %v", p.name, *p.v)
		}
	}
	if lam := (st.sx / st.sa) * (st.sx / st.sa); !(lam >= lambdaMin && lam <= lambdaMax) {
		return st, fmt.Errorf("sigmax0/sigmaa0 = %v/%v is outside the supported ratio range [1e-5, 1e5]", st.sx, st.sa)
	}
	if opt.InitZ != nil && st.init == "" {
		st.init = "given"
	}
	switch st.init {
	case "", "prior":
		st.init = "prior"
	case "single":
	case "bpmeans":
	case "given":
		if opt.InitZ == nil || opt.InitZ.IsEmpty() {
			return st, errors.New(`init "given" needs InitZ`)
		}
		zr, zc := opt.InitZ.Dims()
		if zr != n {
			return st, fmt.Errorf("initz has %d rows, X has %d", zr, n)
		}
		st.k0 = zc
		st.z0 = make([]float64, n*zc)
		for i := 0; i < n; i++ {
			for j, v := range opt.InitZ.RawRowView(i) {
				if v != 0 && v != 1 {
					return st, fmt.Errorf("initz must hold only 0 and 1, got %v at row %d, column %d", v, i, j)
				}
				st.z0[i*zc+j] = v
			}
		}
	default:
		return st, fmt.Errorf(`init must be "prior", "single", "bpmeans" or "given", got %q`, st.init)
	}
	return st, nil
}

// DefaultSweeps is the number of Gibbs sweeps of each chain when Options.Sweeps is 0.
const DefaultSweeps = 1000

// bpmeansRestarts is the number of BP-means restarts behind Init "bpmeans": the result
// is only a starting point, which the sampler then moves from.
const bpmeansRestarts = 10

// bpmeansStart runs BP-means (opt.StartFrom, handed in so that this package does not
// import its sibling) on X and makes its Z the start of every chain (Init
// "bpmeans"). λ² is opt.Lambda2, or when that is 0 the farthest-first proposal for the
// default target K, as the window proposes it. BP-means gets the run's seed,
// so the start, like the chains, depends only on opt.Seed.
func bpmeansStart(ctx context.Context, X *mat.Dense, opt learn.Options, st *settings) error {
	n, _ := X.Dims()
	lam2 := opt.Lambda2
	if lam2 == 0 {
		lam2 = learn.FarthestFirstLambda2(X, min(learn.DefaultTargetK, n))
	}
	if opt.StartFrom == nil {
		return errors.New(`init "bpmeans" needs Options.StartFrom, the BP-means learner`)
	}
	bp, err := opt.StartFrom(ctx, X, learn.Options{Lambda2: lam2, Restarts: bpmeansRestarts, Seed: opt.Seed, Workers: opt.Workers})
	if err != nil {
		return fmt.Errorf("bpmeans start: %w", err)
	}
	st.init, st.k0 = "given", bp.K
	st.z0 = make([]float64, n*bp.K)
	for i := 0; i < n && bp.K > 0; i++ {
		copy(st.z0[i*bp.K:(i+1)*bp.K], bp.Z.RawRowView(i))
	}
	return nil
}

// chainResult is what one chain hands back.
type chainResult struct {
	k, mapK       int
	z, a, mapZ    []float64 // N×k, k×D, N×mapK
	mapLogJoint   float64
	objective     float64 // ‖X − ZA‖²_F of the final sample, A its posterior mean
	ls            float64 // the least-squares ‖X − ZA‖²_F of the final Z
	trace         *learn.IBPTrace
	alpha, sx, sa float64
	second        *samples // the allocations of the second half of the sweeps
}

func gibbs(ctx context.Context, X *mat.Dense, opt learn.Options, cfg *config) (*learn.Result, error) {
	start := time.Now()
	st, err := settingsFrom(X, opt)
	if err != nil {
		return nil, err
	}
	if st.tie > 0 {
		tied := *cfg
		tied.tie = st.tie
		// The pair moves re-express features without changing the fit. At the tied
		// price the chains stay in one mode, so they buy no mixing and only walk among
		// that mode's equivalent forms, such as features that each add one object and
		// remove another at the same objective. Twins are still merged.
		tied.keepForm = true
		cfg = &tied
	}
	n, d := X.Dims()
	x := flat(X)
	if st.init == "bpmeans" {
		if err := bpmeansStart(ctx, X, opt, &st); err != nil {
			return nil, err
		}
	}

	var done atomic.Int64
	total := st.chains * st.sweeps
	swept := make([]atomic.Int64, st.chains) // each chain's sweeps, for its progress
	report := func(chain, k int, best float64) {
		if opt.Progress != nil {
			opt.Progress(learn.Progress{Stage: "sweep", Done: int(done.Add(1)), Total: total, K: k, Best: best,
				Chains: st.chains, Chain: chain + 1, Sweep: int(swept[chain].Add(1))})
		}
	}
	results := make([]*chainResult, st.chains)
	newWorker := func() learn.RestartFunc[*chainResult] {
		return func(r int, rng *rand.Rand) (*chainResult, float64, error) {
			res, err := runChain(ctx, cfg, rng, x, n, d, st, func(k int, best float64) { report(r, k, best) })
			if err != nil {
				return nil, 0, err
			}
			results[r] = res
			return res, -res.mapLogJoint, nil
		}
	}
	best, _, _, err := learn.BestOfRestarts(ctx, st.chains, opt.Workers, opt.Seed, newWorker, nil)
	if err != nil {
		return nil, err
	}
	if cfg.keep != nil {
		for _, r := range results {
			cfg.keep(r)
		}
	}

	if opt.ReportOn != nil {
		// The chains sampled a view of the images; the result is on the images.
		for _, r := range results {
			r.ls = learn.LeastSquaresSS(opt.ReportOn, dense(n, r.k, r.z))
		}
		// The posterior mean of the features given Z, on those data: H of a chain there.
		xr := flat(opt.ReportOn)
		c := newChain(cfg, nil, xr, n, d, best.z, best.k, best.alpha, best.sx, best.sa)
		if c.err != nil {
			return nil, c.err
		}
		best.a = append(best.a[:0], c.H[:c.k*d]...)
		best.objective = residualSS(xr, best.z, best.a, n, best.k, d)
	}
	z, a, k := mergeDuplicates(best.z, best.a, n, best.k, d)
	res := &learn.Result{
		Z:           dense(n, k, z),
		A:           dense(k, d, a),
		K:           k,
		Objective:   best.ls,
		BPObjective: best.ls + opt.Lambda2*float64(k),
		// The posterior-mean A fits slightly worse than the least-squares one: its own
		// name, so that Objective compares with the other learners'.
		PosteriorObjective: best.objective,
		Iterations:         st.sweeps,
		Lambda2:            opt.Lambda2,
		Trace:              best.trace,
		MAPZ:               dense(n, best.mapK, best.mapZ),
		MAPLogJoint:        best.mapLogJoint,
		ZProbability:       best.second.ownership(z, n, k),
	}
	for _, r := range results {
		res.RestartObjectives = append(res.RestartObjectives, r.ls)
	}
	// Posterior summaries over the second half of the reported chain. Chains stuck in
	// different modes would make a pooled summary describe no mode at all.
	tr := best.trace
	half := st.sweeps / 2
	for t := half; t < st.sweeps; t++ {
		if st.tie > 0 {
			res.LogAlpha -= st.tie / (2 * tr.SigmaX[t] * tr.SigmaX[t])
		}
		res.Alpha += tr.Alpha[t]
		res.SigmaX += tr.SigmaX[t]
		res.SigmaA += tr.SigmaA[t]
		k := tr.K[t]
		for len(res.KHistogram) <= k {
			res.KHistogram = append(res.KHistogram, 0)
		}
		res.KHistogram[k]++
	}
	cnt := float64(st.sweeps - half)
	res.Alpha /= cnt
	res.LogAlpha /= cnt
	res.SigmaX /= cnt
	res.SigmaA /= cnt
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// runChain runs one chain for st.sweeps sweeps and collects its trace, its final
// sample and its highest-log-joint sample.
func runChain(ctx context.Context, cfg *config, rng *rand.Rand, x []float64, n, d int,
	st settings, report func(k int, best float64)) (*chainResult, error) {
	var z0 []float64
	var k0 int
	switch st.init {
	case "prior":
		z0, k0 = drawPrior(rng, n, st.alpha)
	case "single":
		z0, k0 = make([]float64, n), 1
		for i := range z0 {
			z0[i] = 1
		}
	case "given":
		z0, k0 = st.z0, st.k0
	}
	c := newChain(cfg, rng, x, n, d, z0, k0, st.alpha, st.sx, st.sa)
	if c.err != nil {
		return nil, c.err
	}

	S, burn := st.sweeps, st.sweeps/2
	tr := &learn.IBPTrace{K: make([]int, S), Alpha: make([]float64, S), SigmaX: make([]float64, S),
		SigmaA: make([]float64, S), LogJoint: make([]float64, S)}
	res := &chainResult{trace: tr, mapLogJoint: math.Inf(-1), second: newSamples(n)}
	for t := 0; t < S; t++ {
		if err := c.sweep(ctx, t, t < burn); err != nil {
			return nil, err
		}
		lj := c.logJoint()
		tr.K[t], tr.Alpha[t], tr.SigmaX[t], tr.SigmaA[t], tr.LogJoint[t] = c.k, c.alpha, c.sx, c.sa, lj
		if lj > res.mapLogJoint || res.mapZ == nil {
			res.mapLogJoint, res.mapK = lj, c.k
			res.mapZ = c.copyZ(res.mapZ)
		}
		if t >= burn {
			res.second.add(c)
		}
		report(c.k, res.mapLogJoint)
	}
	tr.AcceptX = float64(c.accX) / math.Max(float64(c.nX), 1)
	tr.AcceptA = float64(c.accA) / math.Max(float64(c.nA), 1)
	res.k, res.alpha, res.sx, res.sa = c.k, c.alpha, c.sx, c.sa
	res.z = c.copyZ(nil)
	res.a = append([]float64(nil), c.H[:c.k*d]...)
	res.objective = residualSS(x, res.z, res.a, n, c.k, d)
	res.ls = learn.LeastSquaresSS(mat.NewDense(n, d, x), dense(n, c.k, res.z))
	return res, nil
}

// copyZ returns Z as a flat N×K slice, reusing dst's storage when it is large enough.
func (c *chain) copyZ(dst []float64) []float64 {
	if cap(dst) < c.n*c.k {
		dst = make([]float64, c.n*c.k)
	}
	dst = dst[:c.n*c.k]
	for i := 0; i < c.n; i++ {
		copy(dst[i*c.k:(i+1)*c.k], c.z[i*c.kc:i*c.kc+c.k])
	}
	return dst
}

// drawPrior draws an N-row Z from the IBP(α) (Liu & Li App. A, Alg. 2): customers in
// a random order; the n-th takes each existing dish with probability m_k/n, then
// Poisson(α/n) new dishes. It returns Z flat N×K and K.
func drawPrior(rng *rand.Rand, n int, alpha float64) ([]float64, int) {
	var cols [][]float64
	var m []int
	for pos, i := range rng.Perm(n) {
		cnt := float64(pos + 1)
		for f, col := range cols {
			if rng.Float64()*cnt < float64(m[f]) {
				col[i] = 1
				m[f]++
			}
		}
		for range poisson(rng, alpha/cnt) {
			col := make([]float64, n)
			col[i] = 1
			cols = append(cols, col)
			m = append(m, 1)
		}
	}
	k := len(cols)
	z := make([]float64, n*k)
	for f, col := range cols {
		for i, v := range col {
			z[i*k+f] = v
		}
	}
	return z, k
}

// poisson draws from Poisson(mean) by counting unit-rate exponential arrivals in
// [0, mean]; the IBP needs only small means.
func poisson(rng *rand.Rand, mean float64) int {
	k := 0
	for t := rng.ExpFloat64(); t < mean; t += rng.ExpFloat64() {
		k++
	}
	return k
}

// residualSS is ‖X − ZA‖²_F on flat slices (K may be 0).
func residualSS(x, z, a []float64, n, k, d int) float64 {
	var ss float64
	row := make([]float64, d)
	for i := 0; i < n; i++ {
		copy(row, x[i*d:i*d+d])
		for f := 0; f < k; f++ {
			if z[i*k+f] != 0 {
				for j, v := range a[f*d : f*d+d] {
					row[j] -= v
				}
			}
		}
		for _, v := range row {
			ss += v * v
		}
	}
	return ss
}

// flat is X's entries row by row.
func flat(X *mat.Dense) []float64 {
	n, d := X.Dims()
	x := make([]float64, n*d)
	for i := 0; i < n; i++ {
		copy(x[i*d:i*d+d], X.RawRowView(i))
	}
	return x
}

// dense wraps a flat r×c slice; with no columns (or rows) it returns an empty matrix,
// which mat.NewDense cannot represent.
func dense(r, c int, data []float64) *mat.Dense {
	if r == 0 || c == 0 {
		return &mat.Dense{}
	}
	return mat.NewDense(r, c, data)
}

// rms is the root mean square of X's entries, √(‖X‖²_F / ND): the scale of the data.
func rms(X *mat.Dense) float64 {
	n, d := X.Dims()
	var ss float64
	for i := 0; i < n; i++ {
		for _, v := range X.RawRowView(i) {
			ss += v * v
		}
	}
	return math.Sqrt(ss / float64(n*d))
}

// mergeDuplicates merges the features of Z (N×K, flat) that are owned by the same rows
// into one whose row of A (K×D, flat) is the sum of theirs, and returns the new Z, A and
// K. The IBP allows such twins — each holds part of what the rows share — but ZA, and so
// the fit, is the same with one feature, and a user reads two features on the same
// images as one thing shown twice. The first of each group keeps its place.
func mergeDuplicates(z, a []float64, n, k, d int) ([]float64, []float64, int) {
	keep := make([]int, 0, k) // kept feature of each output column
	into := make([]int, k)    // output column of each feature
	for f := 0; f < k; f++ {
		into[f] = -1
		for c, g := range keep {
			same := true
			for i := 0; i < n && same; i++ {
				same = z[i*k+f] == z[i*k+g]
			}
			if same {
				into[f] = c
				break
			}
		}
		if into[f] < 0 {
			into[f] = len(keep)
			keep = append(keep, f)
		}
	}
	if len(keep) == k {
		return z, a, k
	}
	kk := len(keep)
	z2 := make([]float64, n*kk)
	for i := 0; i < n; i++ {
		for c, f := range keep {
			z2[i*kk+c] = z[i*k+f]
		}
	}
	a2 := make([]float64, kk*d)
	for f := 0; f < k; f++ {
		row := a2[into[f]*d : (into[f]+1)*d]
		for j, v := range a[f*d : (f+1)*d] {
			row[j] += v
		}
	}
	return z2, a2, kk
}
