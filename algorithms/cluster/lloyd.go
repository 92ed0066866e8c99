package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"featurelab/algorithms/learn"
	"featurelab/internal/parallel"
)

// Lloyd is the one K-means kernel of Feature Lab: k-means++ seeding and Lloyd's
// iterations on N×D rows, row-major, under KMeans' policies (a row moves only to a
// strictly nearer centre; an empty cluster is re-seeded with the farthest row whose
// cluster keeps another row). KMeans runs one per worker for its restarts; the segmenter
// runs one on the pixels of a photo, with the rows split among workers goroutines.
//
// The rows are processed in the fixed chunks of parallel.ForChunks and the partial sums
// added in chunk order, so the result is the same for any number of workers. With at most
// parallel.ChunkRows rows there is one chunk, and every sum is taken in row order.
// A Lloyd keeps its scratch from run to run and allocates nothing on one worker.
type Lloyd struct {
	x       []float64
	n, d, k int
	workers int

	// Report, when set, is told how far a long seeding or assignment step has come
	// (stage, done, total), every cancelCheck centres or every chunk of rows; it may be
	// called from any of the workers' goroutines, concurrently.
	Report func(stage string, done, total int)

	stop atomic.Bool  // set once the context of the Seed or Run under way is done
	rows atomic.Int64 // rows assigned in the step under way, for Report

	dist  []float64   // each row's squared distance to its centre (D² while seeding)
	parts [][]float64 // per chunk: objective, rows moved, rows per cluster (K), sums (K×D)
	tot   []float64   // the parts added in chunk order

	// The centres and assignment of the step under way, and the chunk tasks that read
	// them, made once so a step allocates nothing.
	cent                        []float64
	assign                      []int
	newCentre                   []float64 // the centre Seed just placed
	assignTask, sumTask, d2Task func(w, chunk, lo, hi int)
}

// The layout of a chunk's partial sums.
const (
	lloydObjective = iota
	lloydMoved
	lloydCounts
)

// NewLloyd returns the kernel for k clusters of the n×d rows of x (row-major, read only),
// assigning rows on workers goroutines (≤ 1: the calling one). 1 ≤ k ≤ n.
func NewLloyd(x []float64, n, d, k, workers int) *Lloyd {
	l := &Lloyd{x: x, n: n, d: d, k: k, workers: workers,
		dist:  make([]float64, n),
		parts: parallel.NewParts(parallel.NumChunks(n), lloydCounts+k+k*d),
		tot:   make([]float64, lloydCounts+k+k*d),
	}
	l.assignTask = func(_, ch, lo, hi int) { l.assignRows(l.parts[ch], lo, hi) }
	l.sumTask = func(_, ch, lo, hi int) { l.sumRows(l.parts[ch], lo, hi) }
	l.d2Task = func(_, _, lo, hi int) { l.nearer(lo, hi) }
	return l
}

// cancelCheck is how many rows (or centres) a loop handles between two looks at the
// context: with K = 65 536 centres a row costs as much as a whole small step.
const cancelCheck = 64

// watch makes l.stop follow ctx until the returned function is called.
func (l *Lloyd) watch(ctx context.Context) (release func() bool) {
	l.stop.Store(ctx.Err() != nil)
	return context.AfterFunc(ctx, func() { l.stop.Store(true) })
}

// Seed places the K initial centres in cent (K×D) by k-means++ (Arthur & Vassilvitskii
// 2007; D² sampling: the first centre a uniformly chosen row, every further centre a row
// drawn with probability proportional to its squared distance to the nearest centre so
// far) and marks every row of assign (length N) as unassigned (−1). It returns ctx's
// error, having stopped part way, when ctx is done first.
func (l *Lloyd) Seed(ctx context.Context, rng *rand.Rand, cent []float64, assign []int) error {
	n, d, x := l.n, l.d, l.x
	for i := range l.dist {
		l.dist[i] = math.Inf(1)
	}
	for j := 0; j < l.k; j++ {
		if j%cancelCheck == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if l.Report != nil && j > 0 {
				l.Report("Seeding the K-means centres", j, l.k)
			}
		}
		var pick int
		if j == 0 {
			pick = rng.IntN(n)
		} else if pick = drawWeighted(rng, l.dist); pick < 0 {
			// Every row sits on a centre already (duplicate rows): the rest are copies
			// of the first, which no row leaves its centre for, placed without the pass
			// over the rows each further centre would cost.
			for ; j < l.k; j++ {
				copy(cent[j*d:(j+1)*d], cent[:d])
			}
			break
		}
		l.newCentre = cent[j*d : (j+1)*d]
		copy(l.newCentre, x[pick*d:(pick+1)*d])
		parallel.ForChunks(n, l.workers, l.d2Task)
	}
	l.newCentre = nil
	for i := range assign {
		assign[i] = -1
	}
	return nil
}

// nearer lowers the D² of rows lo…hi−1 to their squared distance to the newest centre.
func (l *Lloyd) nearer(lo, hi int) {
	d, x, c := l.d, l.x, l.newCentre
	for i := lo; i < hi; i++ {
		if v := learn.SqDistBounded(x[i*d:(i+1)*d], c, l.dist[i]); v < l.dist[i] {
			l.dist[i] = v
		}
	}
}

// drawWeighted draws an index with probability proportional to its weight (k-means++'s
// D² sampling), or returns −1 when every weight is 0.
func drawWeighted(rng *rand.Rand, weight []float64) int {
	var total float64
	for _, v := range weight {
		total += v
	}
	if !(total > 0) {
		return -1
	}
	u, acc, pick := rng.Float64()*total, 0.0, -1
	for i, v := range weight {
		if v == 0 {
			continue
		}
		pick = i // the last index with positive weight absorbs rounding at the end
		if acc += v; acc > u {
			break
		}
	}
	return pick
}

// Run alternates assignment and mean-update steps from the centres in cent (K×D, updated
// in place) and the assignment in assign (length N, −1 for unassigned rows, as Seed
// leaves them) until no row changes cluster, making at most maxIter assignment steps. It
// returns the number of mean updates made. After every assignment step, including the
// last, iteration (when not nil) receives the step's number from 1 and the objective
// Σₙ ‖xₙ − μ_{zₙ}‖² of the new assignment against the centres it was made with; the
// objective never rises from one step to the next.
func (l *Lloyd) Run(ctx context.Context, cent []float64, assign []int, maxIter int,
	iteration func(it int, objective float64)) (int, error) {
	l.cent, l.assign = cent, assign
	release := l.watch(ctx)
	defer func() { l.cent, l.assign = nil, nil; release() }()
	updates := 0
	for step := 1; step <= maxIter; step++ {
		if err := ctx.Err(); err != nil {
			return updates, err
		}
		l.rows.Store(0)
		parallel.ForChunks(l.n, l.workers, l.assignTask)
		if err := ctx.Err(); err != nil {
			return updates, err // the step stopped part way: its sums are not whole
		}
		parallel.SumChunks(l.tot, l.parts)
		if iteration != nil {
			iteration(step, l.tot[lloydObjective])
		}
		if l.tot[lloydMoved] == 0 {
			break // the centres are already the means of their rows
		}
		if l.tot[lloydObjective] == 0 {
			// Every row sits on its centre (duplicate rows): after the empty clusters are
			// re-seeded no row can move, so the step that would say so is not made.
			l.update()
			updates++
			break
		}
		l.update()
		if err := ctx.Err(); err != nil {
			return updates, err
		}
		updates++
	}
	return updates, nil
}

// assignRows moves every row of lo…hi−1 to its nearest centre, keeping the current one
// on ties, so ties cannot make it cycle, and adds the chunk's objective, rows moved,
// rows per cluster and sums into acc. It leaves each row's squared distance in l.dist.
func (l *Lloyd) assignRows(acc []float64, lo, hi int) {
	d, k, x, cent, assign := l.d, l.k, l.x, l.cent, l.assign
	clear(acc)
	for i := lo; i < hi; i++ {
		if (i-lo)%cancelCheck == 0 && l.stop.Load() {
			return
		}
		xi := x[i*d : (i+1)*d]
		cur := assign[i]
		bestC, bestD := -1, math.Inf(1)
		if cur >= 0 {
			bestC, bestD = cur, learn.SqDist(xi, cent[cur*d:(cur+1)*d])
		}
		for c, off := 0, 0; c < k; c, off = c+1, off+d {
			if c == cur {
				continue
			}
			if v := learn.SqDistBounded(xi, cent[off:off+d], bestD); v < bestD {
				bestC, bestD = c, v
			}
		}
		if bestC != cur {
			assign[i] = bestC
			acc[lloydMoved]++
		}
		l.dist[i] = bestD
		acc[lloydObjective] += bestD
		l.addRow(acc, bestC, xi)
	}
	l.reportRows(hi - lo)
}

// reportRows counts rows assigned in the step under way and tells Report.
func (l *Lloyd) reportRows(rows int) {
	if l.Report == nil {
		return
	}
	l.Report("Assigning rows to the K-means centres", int(l.rows.Add(int64(rows))), l.n)
}

// sumRows adds the rows per cluster and sums of rows lo…hi−1 into acc, cleared first.
func (l *Lloyd) sumRows(acc []float64, lo, hi int) {
	clear(acc)
	d := l.d
	for i := lo; i < hi; i++ {
		l.addRow(acc, l.assign[i], l.x[i*d:(i+1)*d])
	}
}

// addRow counts row xi in cluster c of a chunk's partial sums.
func (l *Lloyd) addRow(acc []float64, c int, xi []float64) {
	acc[lloydCounts+c]++
	s := acc[lloydCounts+l.k+c*l.d : lloydCounts+l.k+(c+1)*l.d]
	for j, v := range xi {
		s[j] += v
	}
}

// update re-seeds empty clusters and moves every centre to the mean of its rows.
func (l *Lloyd) update() {
	n, d, k, assign := l.n, l.d, l.k, l.assign
	count := l.tot[lloydCounts : lloydCounts+k]
	reseeded := false
	for c := 0; c < k; c++ {
		if count[c] > 0 {
			continue
		}
		// The farthest row whose cluster keeps another row: moving it here empties no
		// other cluster, and its term of the objective drops to zero.
		if l.stop.Load() {
			return // Run returns the context's error
		}
		far, farD := -1, -1.0
		for i := 0; i < n; i++ {
			if count[assign[i]] > 1 && l.dist[i] > farD {
				far, farD = i, l.dist[i]
			}
		}
		count[assign[far]]--
		count[c] = 1
		assign[far] = c
		l.dist[far] = 0
		reseeded = true
	}
	if reseeded {
		parallel.ForChunks(n, l.workers, l.sumTask)
		parallel.SumChunks(l.tot, l.parts)
	}
	sum := l.tot[lloydCounts+k:]
	for c := 0; c < k; c++ {
		inv := 1 / count[c]
		cc, s := l.cent[c*d:(c+1)*d], sum[c*d:(c+1)*d]
		for j := range cc {
			cc[j] = s[j] * inv
		}
	}
}
