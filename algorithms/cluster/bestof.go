package cluster

// bestOf holds a worker's two states of a restart — the current restart's and its best
// so far — and swaps them when the current one wins, so a restart allocates nothing.
type bestOf[S any] struct {
	cur, best *S
	obj       float64
	have      bool
}

// keep records the objective of the restart just run into cur and returns the state to
// hand to learn.BestOfRestarts: the new best after a swap when it improved, else cur
// (the caller keeps a candidate only when its objective is lower, so handing back the
// previous best is never needed). Restart indices reach a worker in increasing order and
// learn.BestOfRestarts keeps the lowest index on ties, so only a strictly lower objective
// replaces the best.
func (b *bestOf[S]) keep(obj float64) *S {
	if !b.have || obj < b.obj {
		b.cur, b.best = b.best, b.cur
		b.obj, b.have = obj, true
		return b.best
	}
	return b.cur
}
