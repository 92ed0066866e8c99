package features

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms/learn"
)

// kfSearchRows is the most rows K-features' random restarts run on. With more, the
// restarts search on that many rows, evenly spread through X, and the kfPolished best
// of them, their features given to every row, start restarts on all of X (Bradley and
// Fayyad, "Refining initial points for K-means clustering", 1998: a sample finds the
// basins, the full data their bottoms).
const kfSearchRows = 512

// kfPolished is how many of the sample's best fits are carried to all the rows.
const kfPolished = 8

// searchSet is a problem's sample of rows for the restarts' search (kfSearchRows),
// made on first use.
type searchSet struct {
	once sync.Once
	rows []int      // the rows of the sample, in order
	p    *kfProblem // the sample's problem
}

// search returns p's sample and its problem, or nil when p is small enough to search on
// whole, or works on the LQ factor of X (kfLQMaxN): the sample's features are of X's
// columns, which that problem's restarts do not work in, and with at most kfLQMaxN rows
// of a few columns each the restarts on all of them are cheap already.
func (p *kfProblem) search() *searchSet {
	if p.n <= kfSearchRows || p.x != p.orig {
		return nil
	}
	s := &p.sample
	s.once.Do(func() {
		m := kfSearchRows
		_, d := p.orig.Dims()
		s.rows = make([]int, m)
		X := mat.NewDense(m, d, nil)
		for i := range m {
			s.rows[i] = i * p.n / m
			copy(X.RawRowView(i), p.orig.RawRowView(s.rows[i]))
		}
		s.p = newKFProblem(X)
	})
	return s
}

// keptFits collects every restart's fit (restarts' kept).
type keptFits struct {
	mu   sync.Mutex
	fits []keptFit
}

// keptFit is one restart's fit: its index, K, objective and codes.
type keptFit struct {
	r, k int
	obj  float64
	z    []uint64
}

func (kf *keptFits) add(r, k int, obj float64, z []uint64) {
	kf.mu.Lock()
	kf.fits = append(kf.fits, keptFit{r: r, k: k, obj: obj, z: slices.Clone(z)})
	kf.mu.Unlock()
}

// searched runs best's restarts on p's sample and returns the starts for restarts on all
// of p: the given ones, then the sample's kfPolished best distinct fits as features
// (kfStart.a). The objectives are the sample restarts', scaled to p's number of rows.
func (p *kfProblem) searched(ctx context.Context, k int, cfg learn.Config, seed uint64, starts []kfStart,
	progress func(done, total int, best float64)) ([]kfStart, []float64, error) {
	s := p.search()
	sub := make([]kfStart, len(starts))
	for i, st := range starts {
		z := make([]uint64, len(s.rows))
		for j, r := range s.rows {
			z[j] = st.z[r]
		}
		sub[i] = kfStart{k: st.k, z: z}
	}
	// The sample's objectives, as the caller hears of them, are scaled to p's rows: a
	// clock or a λ² reads them against the whole data's.
	scale := float64(p.n) / float64(len(s.rows))
	var scaled func(done, total int, best float64)
	if progress != nil {
		scaled = func(done, total int, best float64) { progress(done, total, best*scale) }
	}
	var kept keptFits
	fit, err := s.p.restarts(ctx, k, cfg, seed, sub, scaled, &kept)
	if err != nil {
		return nil, nil, err
	}
	// The best first, ties by restart, so that the choice is the same for any number of
	// workers; a fit found twice is carried once. Two restarts that reach one fit reach
	// it through different moves, so its objective can differ in the last bits.
	slices.SortFunc(kept.fits, func(a, b keptFit) int {
		return cmp.Or(cmp.Compare(a.obj, b.obj), cmp.Compare(a.r, b.r))
	})
	out := slices.Clip(starts)
	last := math.NaN()
	for _, f := range kept.fits {
		if len(out)-len(starts) == kfPolished {
			break
		}
		if math.Abs(f.obj-last) <= 1e-9*math.Abs(last) {
			continue
		}
		last = f.obj
		res, err := s.p.result(&kfFit{k: f.k, z: f.z})
		if err != nil {
			continue
		}
		out = append(out, kfStart{k: res.K, a: res.A.RawMatrix().Data})
	}
	objectives := make([]float64, len(fit.objectives))
	for i, o := range fit.objectives {
		objectives[i] = o * scale
	}
	return out, objectives, nil
}

// startFromFeatures begins a restart from st's features (st.k × d, row-major) with every
// code empty, so that the first Z-step gives each row its best code for them.
func (w *kfWork) startFromFeatures(st kfStart) {
	p := w.p
	w.k = st.k
	clear(w.z)
	w.rebuild()
	copy(w.a[:w.k*p.d], st.a)
	w.projectRows()
}
