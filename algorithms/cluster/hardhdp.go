package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// HDPOptions are the hard HDP's settings: the learn.Options every learner takes (Restarts,
// MaxIter, Seed, Workers, Divergence, Progress; K is the target number of global clusters
// for the λ proposal and the seeded restarts' start, default DefaultTargetK) and the two
// penalties.
type HDPOptions struct {
	learn.Options
	// LambdaLocal is λ_bottom, the price of a local cluster (a group using a global
	// cluster); LambdaGlobal is λ_top, the price of a global cluster. 0 proposes it
	// (ProposeHDPLambdas; λ_top from the λ_bottom given or proposed).
	LambdaLocal, LambdaGlobal float64
	// Report, when set, is told how far the long steps of one restart have come (stage,
	// done, total): proposing λ_bottom and seeding, which with a target of thousands of
	// clusters take seconds each. It may be called from any goroutine, concurrently.
	Report func(stage string, done, total int)
}

// HDPResult is a hard HDP clustering of grouped rows.
type HDPResult struct {
	K      int        // global clusters
	Means  *mat.Dense // K×D global means (histograms for KL)
	Assign []int      // the global cluster of every row, 0…K−1 in order of first row
	// Local is, per group, how many local clusters it has: the global clusters its rows
	// use (local clusters of a group never share a global one: merging them saves
	// λ_bottom and changes nothing else).
	Local []int
	// Objective is Σ D_φ(x, μ) over the rows; Penalised adds λ_bottom·t + λ_top·K, t
	// the local clusters of all groups (eq. 4).
	Objective, Penalised      float64
	LambdaLocal, LambdaGlobal float64
	Iterations                int
	RestartObjectives         []float64 // Penalised of every restart
	Seconds                   float64
}

// HardHDP clusters rows that come in groups with the hard hierarchical Dirichlet process
// (Jiang, Kulis & Jordan 2012, §4, eq. 4; for squared Euclidean distance Kulis & Jordan
// 2012, Alg. 2): each group's rows fall into local clusters and every local cluster is
// tied to a global mean shared by all groups, minimising
//
//	Σ D_φ(x_ij, μ_global(x_ij)) + λ_bottom·t + λ_top·k,
//
// t the local clusters of all groups and k the global clusters, for the Bregman divergence
// of opt.Divergence (squared Euclidean, KL on rows normalised to histograms, or the
// generalised I-divergence). X holds all rows; group[i] ∈ 0…J−1 is row i's group.
//
// Restart 0 starts as Kulis & Jordan's Alg. 2 does, with one global cluster at the mean
// of all rows, used by every group; the others start from opt.K global means seeded by
// k-means++ with the divergence (each row at its nearest). From one global cluster a new
// one opens only where a single row pays λ_bottom + λ_top, so with λ_top large enough to
// keep a segment of many rows in one global cluster across groups no second cluster ever
// opened: the seeded starts reach what merges can then prune. Each restart repeats, the
// rows in a fresh random order each pass:
//   - row moves: each row goes where it costs least with the means fixed — a global
//     cluster its group already uses (its divergence), one it does not (plus λ_bottom), or
//     a new global cluster at itself (λ_bottom + λ_top) — counting what leaving costs too
//     (λ_bottom when it was its group's last row in its global cluster, λ_top when the last
//     row of it anywhere), and stays unless a move is strictly better;
//   - local moves: each local cluster (a group's rows in one global cluster) moves as a
//     whole to the global cluster that costs least, or to a new one at its own mean;
//   - mean updates: each global mean becomes the mean of its rows (the minimiser for any
//     Bregman divergence), and unused global clusters go;
//   - merges: two global clusters become one while that lowers the objective
//     (mergeGlobals).
//
// Every step lowers the objective or leaves it, so it never rises; a pass that changes
// nothing ends the restart (at most opt.MaxIter passes). The best of opt.Restarts wins.
func HardHDP(ctx context.Context, X *mat.Dense, group []int, opt HDPOptions) (*HDPResult, error) {
	start := time.Now()
	kind, err := parseDivergence(opt.Divergence)
	if err != nil {
		return nil, err
	}
	cfg, err := learn.Check(X, opt.Options)
	if err != nil {
		return nil, err
	}
	data, err := newBregData(X, kind)
	if err != nil {
		return nil, err
	}
	groups, err := checkGroups(group, data.n)
	if err != nil {
		return nil, err
	}
	ll, lg := opt.LambdaLocal, opt.LambdaGlobal
	target := targetK(opt.K)
	for _, l := range []struct {
		name string
		v    float64
	}{{"lambda-local", ll}, {"lambda-global", lg}} {
		if !(l.v >= 0) || math.IsInf(l.v, 0) {
			return nil, fmt.Errorf("%s must be a finite number ≥ 0 (0 proposes it), got %v", l.name, l.v)
		}
	}
	if ll == 0 {
		var report func(done, total int)
		if opt.Report != nil {
			report = func(done, total int) { opt.Report("Proposing λ_bottom", done, total) }
		}
		mean, lmean := data.mean()
		if ll, err = data.farthestFirstContext(ctx, min(target, data.n), mean, lmean, report); err != nil {
			return nil, err
		}
	}
	if lg == 0 {
		lg = ll * globalFactor(data.n, len(groups), target)
	}
	best, objs, err := bestRestart(ctx, cfg, opt.Options, 0, func() learn.RestartFunc[*hdpState] {
		w := newHDPWork(data, group, groups, ll, lg, cfg.MaxIter)
		w.seeds, w.report = target, opt.Report
		return func(r int, rng *rand.Rand) (*hdpState, float64, error) {
			obj, err := w.run(ctx, w.states.cur, rng, r > 0)
			if err != nil {
				return nil, 0, err
			}
			return w.states.keep(obj), obj, nil
		}
	})
	if err != nil {
		return nil, err
	}
	res := best.result(data, groups, ll, lg)
	res.RestartObjectives = objs
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// HDP is the hard HDP in the shape every learner shares (algorithms.Run), for images:
// opt.Groups gives every row's group (nil: one group), λ_bottom is opt.Lambda2 (proposed
// when 0) and λ_top is proposed from it (ProposeHDPLambdas). The result's Z puts each row
// in its global cluster and A holds the global means; BPObjective is the penalised
// eq. (4) and Lambda2 the λ_bottom used.
func HDP(ctx context.Context, X *mat.Dense, opt learn.Options) (*learn.Result, error) {
	if err := learn.CheckData(X); err != nil {
		return nil, err
	}
	group := opt.Groups
	if group == nil {
		n, _ := X.Dims()
		group = make([]int, n)
	}
	h, err := HardHDP(ctx, X, group, HDPOptions{Options: opt, LambdaLocal: opt.Lambda2})
	if err != nil {
		return nil, err
	}
	n, d := X.Dims()
	res := oneHotResult(h.Assign, h.Means.RawMatrix().Data, n, d, h.K)
	res.Objective, res.BPObjective, res.Lambda2 = h.Objective, h.Penalised, h.LambdaLocal
	res.RestartObjectives, res.Iterations, res.Seconds = h.RestartObjectives, h.Iterations, h.Seconds
	return res, nil
}

// ProposeHDPLambdas proposes the hard HDP's penalties for rows in the given number of
// groups and a target of k global clusters (0: DefaultTargetK), for the divergence div:
// λ_bottom is DP-means' farthest-first λ for k clusters (FarthestFirstLambda2), the
// divergence at which a lone row is far enough from every mean to open a local cluster;
// λ_top is λ_bottom times the rows of a typical local cluster (a group's rows over k, at
// least 1). A local cluster whose mean differs from a global mean by d pays d for each of
// its m rows, so at λ_top = m·λ_bottom it opens a global cluster of its own only when its
// mean is as far from every global mean as a lone row has to be to open a local one.
// With λ_top = λ_bottom (the paper's penalties split evenly) a large segment of a photo
// whose lighting differs slightly from another photo's opens a cluster of its own, and
// photos of one table get dozens of global clusters. It returns zeros
// when it cannot propose (see FarthestFirstLambda2).
func ProposeHDPLambdas(X *mat.Dense, groups, k int, div string) (local, global float64) {
	kind, err := parseDivergence(div)
	if err != nil || groups < 1 {
		return 0, 0
	}
	b, err := newBregData(X, kind)
	if err != nil {
		return 0, 0
	}
	k = targetK(k)
	local = b.proposeLocal(k)
	return local, local * globalFactor(b.n, groups, k)
}

// targetK is the target number of global clusters k, or DefaultTargetK when k ≤ 0.
func targetK(k int) int {
	if k <= 0 {
		return DefaultTargetK
	}
	return k
}

// proposeLocal is ProposeHDPLambdas' λ_bottom for a target of k ≥ 1.
func (b *bregData) proposeLocal(k int) float64 {
	mean, lmean := b.mean()
	return b.farthestFirst(min(k, b.n), mean, lmean)
}

// globalFactor is λ_top over λ_bottom in ProposeHDPLambdas: the rows of a typical local
// cluster, n rows in the given groups over k ≥ 1, at least 1.
func globalFactor(n, groups, k int) float64 {
	return max(1, float64(n)/float64(groups*k))
}

// checkGroups checks every row's group and returns the rows of each group.
func checkGroups(group []int, n int) ([][]int, error) {
	if len(group) != n {
		return nil, fmt.Errorf("%d group labels for %d rows", len(group), n)
	}
	j := 0
	for i, g := range group {
		if g < 0 || g >= n {
			return nil, fmt.Errorf("row %d has group %d, want 0…%d", i, g, n-1)
		}
		j = max(j, g+1)
	}
	groups := make([][]int, j)
	for i, g := range group {
		groups[g] = append(groups[g], i)
	}
	for g, rows := range groups {
		if len(rows) == 0 {
			return nil, fmt.Errorf("group %d has no rows (groups must be numbered 0…%d without gaps)", g, j-1)
		}
	}
	return groups, nil
}

// hdpState is one restart's answer: the global means and their logs (divergences other
// than euclidean), every row's global cluster, and the passes made.
type hdpState struct {
	cent, lcent []float64
	assign      []int
	k, iters    int
}

// hdpWork is one worker's scratch: the counts of rows per global cluster and per group
// and global cluster, kept exact through every move, so a move's cost is its divergence
// and the penalties it adds or saves.
type hdpWork struct {
	data    *bregData
	group   []int
	groups  [][]int
	ll, lg  float64
	maxIter int
	seeds   int // global clusters a seeded restart starts with
	states  bestOf[hdpState]
	perm    []int
	nG      []int   // rows per global cluster
	nJG     [][]int // rows per group and global cluster
	sum     []float64
	remap   []int
	div     []float64 // scratch: a local cluster's divergence to each global mean
	// Scratch of localMoves and mergeGlobals: a mean and its logs (d), each global
	// cluster's rows and their divergence from its mean (k).
	own, lown []float64
	rowsOf    [][]int
	ownDiv    []float64
	dist      []float64 // scratch of seed: each row's divergence to its nearest seed
	trace     func(step string, obj float64)
	// halt is set once the context of the run under way is done: the moves stop part
	// way, every cancelCheck rows or clusters, and run returns the context's error.
	halt atomic.Bool
	// report, when set, is told how far the seeding has come (HDPOptions.Report).
	report func(stage string, done, total int)
}

func newHDPWork(data *bregData, group []int, groups [][]int, ll, lg float64, maxIter int) *hdpWork {
	return &hdpWork{data: data, group: group, groups: groups, ll: ll, lg: lg, maxIter: maxIter,
		states: bestOf[hdpState]{cur: &hdpState{}, best: &hdpState{}},
		perm:   make([]int, data.n), nJG: make([][]int, len(groups))}
}

// mean returns global cluster c's mean and its logs (nil for euclidean).
func (st *hdpState) mean(c, d int) (mu, lmu []float64) {
	mu = st.cent[c*d : (c+1)*d]
	if st.lcent != nil {
		lmu = st.lcent[c*d : (c+1)*d]
	}
	return mu, lmu
}

// counts recomputes the row counts from the assignment.
func (w *hdpWork) counts(st *hdpState) {
	w.nG = growInts(w.nG, st.k)
	clear(w.nG)
	for j := range w.nJG {
		w.nJG[j] = growInts(w.nJG[j], st.k)
		clear(w.nJG[j])
	}
	for i, c := range st.assign {
		w.nG[c]++
		w.nJG[w.group[i]][c]++
	}
}

// objective is eq. (4) for the state.
func (w *hdpWork) objective(st *hdpState) float64 {
	b, d := w.data, w.data.d
	var total float64
	for i, c := range st.assign {
		y, ly := b.row(i)
		mu, lmu := st.mean(c, d)
		total += b.div(y, ly, mu, lmu, math.Inf(1))
	}
	t, k := 0, 0
	for c := 0; c < st.k; c++ {
		if w.nG[c] > 0 {
			k++
		}
		for j := range w.nJG {
			if w.nJG[j][c] > 0 {
				t++
			}
		}
	}
	return total + w.ll*float64(t) + w.lg*float64(k)
}

// newGlobal appends a global cluster at mu (logs lmu) and returns its index.
func (w *hdpWork) newGlobal(st *hdpState, mu, lmu []float64) int {
	c := st.k
	st.k++
	st.cent = append(st.cent, mu...)
	if st.lcent != nil {
		st.lcent = append(st.lcent, lmu...)
	}
	w.nG = append(w.nG, 0)
	for j := range w.nJG {
		w.nJG[j] = append(w.nJG[j], 0)
	}
	return c
}

// run is one restart: one global cluster at the mean of all rows (or, seeded, w.seeds
// global clusters placed by seed), then passes of row moves, local moves and mean updates
// until a pass changes nothing.
func (w *hdpWork) run(ctx context.Context, st *hdpState, rng *rand.Rand, seeded bool) (float64, error) {
	b, n := w.data, w.data.n
	w.halt.Store(ctx.Err() != nil)
	defer context.AfterFunc(ctx, func() { w.halt.Store(true) })()
	st.assign = growInts(st.assign, n)
	if seeded && w.seeds > 1 {
		w.seed(st, rng)
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	} else {
		mean, lmean := b.mean()
		st.k = 1
		st.cent = append(st.cent[:0], mean...)
		st.lcent = nil
		if lmean != nil {
			st.lcent = append(st.lcent[:0], lmean...)
		}
		clear(st.assign)
		w.counts(st)
	}
	for i := range w.perm {
		w.perm[i] = i
	}
	obj := w.objective(st)
	if w.trace != nil {
		w.trace("start", obj)
	}
	for st.iters = 0; st.iters < w.maxIter; {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		st.iters++
		for i := n - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			w.perm[i], w.perm[j] = w.perm[j], w.perm[i]
		}
		changed := w.rowMoves(st)
		if w.trace != nil {
			w.trace("rows", w.objective(st))
		}
		changed += w.localMoves(st)
		if w.trace != nil {
			w.trace("locals", w.objective(st))
		}
		w.updateMeans(st)
		if w.trace != nil {
			w.trace("means", w.objective(st))
		}
		changed += w.mergeGlobals(st)
		if err := ctx.Err(); err != nil {
			return 0, err // a move stopped part way
		}
		next := w.objective(st)
		if w.trace != nil {
			w.trace("merges", next)
		}
		stop := changed == 0 || !(next < obj)
		obj = next
		if stop {
			break
		}
	}
	return obj, nil
}

// seed places min(w.seeds, N) global means by k-means++ with the divergence (Arthur &
// Vassilvitskii 2007; Banerjee et al. 2005 for Bregman divergences): the first at a random
// row, each next at a row drawn with probability proportional to its divergence from the
// nearest placed; then every row joins its nearest and the means become their rows' means.
func (w *hdpWork) seed(st *hdpState, rng *rand.Rand) {
	b, d, n := w.data, w.data.d, w.data.n
	k := min(w.seeds, n)
	st.k = 0
	st.cent = st.cent[:0]
	switch {
	case b.ly == nil:
		st.lcent = nil
	case st.lcent == nil:
		st.lcent = make([]float64, 0, k*d) // non-nil: the means have logs
	default:
		st.lcent = st.lcent[:0]
	}
	w.dist = growFloats(w.dist, n)
	for c := 0; c < k; c++ {
		if c%cancelCheck == 0 && c > 0 {
			if w.halt.Load() {
				return
			}
			if w.report != nil {
				w.report("Seeding the global clusters", c, k)
			}
		}
		pick := rng.IntN(n)
		if c > 0 {
			if pick = drawWeighted(rng, w.dist); pick < 0 {
				break // every row sits on a seed already
			}
		}
		y, ly := b.row(pick)
		st.cent = append(st.cent, y...)
		if st.lcent != nil {
			st.lcent = append(st.lcent, ly...)
		}
		st.k++
		mu, lmu := st.mean(c, d)
		for i := 0; i < n; i++ {
			x, lx := b.row(i)
			bound := math.Inf(1)
			if c > 0 {
				bound = w.dist[i]
			}
			if v := b.div(x, lx, mu, lmu, bound); c == 0 || v < w.dist[i] {
				w.dist[i] = v
				st.assign[i] = c
			}
		}
	}
	w.counts(st)
	w.updateMeans(st)
}

// rowMoves moves every row, in the pass's order, to where it costs least with the means
// fixed; it returns how many rows moved.
func (w *hdpWork) rowMoves(st *hdpState) int {
	b, d := w.data, w.data.d
	moved := 0
	for r, i := range w.perm {
		if r%cancelCheck == 0 && w.halt.Load() {
			return moved
		}
		j, cur := w.group[i], st.assign[i]
		y, ly := b.row(i)
		w.nG[cur]--
		w.nJG[j][cur]--
		// What row i costs in global cluster c, with i taken out of the counts.
		penalty := func(c int) float64 {
			p := 0.0
			if w.nJG[j][c] == 0 {
				p += w.ll
			}
			if w.nG[c] == 0 {
				p += w.lg
			}
			return p
		}
		mu, lmu := st.mean(cur, d)
		bestCost := b.div(y, ly, mu, lmu, math.Inf(1)) + penalty(cur)
		best := cur
		tol := 1e-12 * (1 + bestCost)
		for c := 0; c < st.k; c++ {
			if c == cur || w.nG[c] == 0 {
				continue // an emptied cluster's mean is stale until the update
			}
			p := penalty(c)
			if p >= bestCost-tol {
				continue
			}
			mu, lmu := st.mean(c, d)
			if v := b.div(y, ly, mu, lmu, bestCost-tol-p) + p; v < bestCost-tol {
				best, bestCost = c, v
			}
		}
		if w.ll+w.lg < bestCost-tol {
			best = w.newGlobal(st, y, ly) // a global cluster at the row: divergence 0
		}
		w.nG[best]++
		w.nJG[j][best]++
		if best != cur {
			st.assign[i] = best
			moved++
		}
	}
	return moved
}

// localMoves moves each local cluster — a group's rows in one global cluster — as a whole
// to the global cluster where it costs least, or to a new one at its own mean; it returns
// how many moved.
func (w *hdpWork) localMoves(st *hdpState) int {
	b, d := w.data, w.data.d
	moved := 0
	for j, rows := range w.groups {
		for c := 0; c < st.k; c++ {
			if c%cancelCheck == 0 && w.halt.Load() {
				return moved
			}
			size := w.nJG[j][c]
			if size == 0 {
				continue
			}
			// The divergence of the local cluster's rows to every live global mean, and
			// its own mean.
			k := st.k
			w.div = growFloats(w.div, k)
			clear(w.div)
			w.own = growFloats(w.own, d)
			own := w.own
			clear(own)
			for _, i := range rows {
				if st.assign[i] != c {
					continue
				}
				y, ly := b.row(i)
				for j2, v := range y {
					own[j2] += v
				}
				for c2 := 0; c2 < k; c2++ {
					if w.nG[c2] > 0 {
						mu, lmu := st.mean(c2, d)
						w.div[c2] += b.div(y, ly, mu, lmu, math.Inf(1))
					}
				}
			}
			for j2 := range own {
				own[j2] /= float64(size)
			}
			var lown []float64
			if st.lcent != nil {
				w.lown = growFloats(w.lown, d)
				lown = w.lown
				floorLogs(lown, own)
			}
			var ownDiv float64
			for _, i := range rows {
				if st.assign[i] == c {
					y, ly := b.row(i)
					ownDiv += b.div(y, ly, own, lown, math.Inf(1))
				}
			}
			// Costs in the frame where the local cluster is gone: staying re-creates it.
			stay := w.div[c] + w.ll
			if w.nG[c] == size {
				stay += w.lg
			}
			best, bestCost := c, stay
			tol := 1e-12 * (1 + stay)
			for c2 := 0; c2 < k; c2++ {
				if c2 == c || w.nG[c2] == 0 {
					continue
				}
				v := w.div[c2]
				if w.nJG[j][c2] == 0 {
					v += w.ll
				}
				if v < bestCost-tol {
					best, bestCost = c2, v
				}
			}
			if ownDiv+w.ll+w.lg < bestCost-tol {
				best = w.newGlobal(st, own, lown)
			}
			if best == c {
				continue
			}
			for _, i := range rows {
				if st.assign[i] == c {
					st.assign[i] = best
				}
			}
			w.nG[c] -= size
			w.nJG[j][c] = 0
			w.nG[best] += size
			w.nJG[j][best] += size
			moved++
		}
	}
	return moved
}

// mergeGlobals merges pairs of global clusters while a merge lowers the objective: all
// rows of one join the other at the mean of both, which costs the rise in divergence and
// saves λ_top and a λ_bottom for every group that used both. Row and local moves cannot
// make that move: when two global clusters hold the same stuff for different images, a
// local cluster moving from one to the other pays the same divergence and saves nothing
// until it is the last, so none moves first. It returns how many merges it made.
func (w *hdpWork) mergeGlobals(st *hdpState) int {
	b, d := w.data, w.data.d
	merged := 0
	for {
		k := st.k
		// Each cluster's rows and their divergence from its mean.
		// Scratch kept across merges and passes: a merge loop must not allocate a list of
		// rows per cluster every time round.
		for len(w.rowsOf) < k {
			w.rowsOf = append(w.rowsOf, nil)
		}
		rows := w.rowsOf[:k]
		for c := range rows {
			rows[c] = rows[c][:0]
		}
		w.ownDiv = growFloats(w.ownDiv, k)
		own := w.ownDiv
		clear(own)
		for i, c := range st.assign {
			rows[c] = append(rows[c], i)
			y, ly := b.row(i)
			mu, lmu := st.mean(c, d)
			own[c] += b.div(y, ly, mu, lmu, math.Inf(1))
		}
		bestP, bestQ, bestGain := -1, -1, 0.0
		w.own = growFloats(w.own, d)
		mean := w.own
		var lmean []float64
		if st.lcent != nil {
			w.lown = growFloats(w.lown, d)
			lmean = w.lown
		}
		for p := 0; p < k; p++ {
			if p%cancelCheck == 0 && w.halt.Load() {
				return merged
			}
			for q := p + 1; q < k; q++ {
				np, nq := float64(len(rows[p])), float64(len(rows[q]))
				if np == 0 || nq == 0 {
					continue
				}
				saved := w.lg
				for j := range w.nJG {
					if w.nJG[j][p] > 0 && w.nJG[j][q] > 0 {
						saved += w.ll
					}
				}
				mp, _ := st.mean(p, d)
				mq, _ := st.mean(q, d)
				for t := range mean {
					mean[t] = (np*mp[t] + nq*mq[t]) / (np + nq)
				}
				if lmean != nil {
					floorLogs(lmean, mean)
				}
				// The merge pays off when the divergence at the joint mean rises by less
				// than it saves.
				bound := own[p] + own[q] + saved - bestGain
				var joint float64
				for _, c := range [2]int{p, q} {
					for _, i := range rows[c] {
						y, ly := b.row(i)
						joint += b.div(y, ly, mean, lmean, math.Inf(1))
					}
					if joint >= bound {
						break
					}
				}
				if gain := own[p] + own[q] + saved - joint; gain > bestGain*(1+1e-12)+1e-12 {
					bestP, bestQ, bestGain = p, q, gain
				}
			}
		}
		if bestP < 0 {
			return merged
		}
		for _, i := range rows[bestQ] {
			st.assign[i] = bestP
		}
		w.nG[bestP] += w.nG[bestQ]
		w.nG[bestQ] = 0
		for j := range w.nJG {
			w.nJG[j][bestP] += w.nJG[j][bestQ]
			w.nJG[j][bestQ] = 0
		}
		w.updateMeans(st) // drops the emptied cluster; the merged mean is its rows' mean
		merged++
	}
}

// updateMeans sets every global mean to the mean of its rows and drops the unused global
// clusters, renumbering the rest in their old order.
func (w *hdpWork) updateMeans(st *hdpState) {
	b, d, k := w.data, w.data.d, st.k
	w.sum = growFloats(w.sum, k*d)
	clear(w.sum)
	for i, c := range st.assign {
		s := w.sum[c*d : (c+1)*d]
		for j, v := range b.y[i*d : (i+1)*d] {
			s[j] += v
		}
	}
	w.remap = growInts(w.remap, k)
	st.k = meansOf(d, k, w.nG, w.sum, &st.cent, &st.lcent, w.remap)
	for i, c := range st.assign {
		st.assign[i] = w.remap[c]
	}
	w.counts(st)
}

// result turns the best state into an HDPResult, global clusters numbered in the order of
// their first row.
func (st *hdpState) result(b *bregData, groups [][]int, ll, lg float64) *HDPResult {
	d := b.d
	label := make([]int, st.k)
	for c := range label {
		label[c] = -1
	}
	next := 0
	res := &HDPResult{Assign: make([]int, len(st.assign)), Local: make([]int, len(groups)),
		LambdaLocal: ll, LambdaGlobal: lg, Iterations: st.iters}
	for i, c := range st.assign {
		if label[c] < 0 {
			label[c] = next
			next++
		}
		res.Assign[i] = label[c]
		y, ly := b.row(i)
		mu, lmu := st.mean(c, d)
		res.Objective += b.div(y, ly, mu, lmu, math.Inf(1))
	}
	res.K = next
	res.Means = mat.NewDense(max(next, 1), d, nil)
	for c := 0; c < st.k; c++ {
		if label[c] >= 0 {
			copy(res.Means.RawRowView(label[c]), st.cent[c*d:(c+1)*d])
		}
	}
	t := 0
	for j, rows := range groups {
		used := map[int]bool{}
		for _, i := range rows {
			used[res.Assign[i]] = true
		}
		res.Local[j] = len(used)
		t += len(used)
	}
	res.Penalised = res.Objective + ll*float64(t) + lg*float64(res.K)
	return res
}
