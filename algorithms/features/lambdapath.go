package features

import (
	"cmp"
	"math"
	"slices"

	"featurelab/algorithms/learn"
)

// PathPoint is one K on the λ² path of a stepwise run: the K that minimises the BP-means
// objective obj(K) + λ²K for every λ² from Lambda2Low to Lambda2High (+Inf for the
// smallest K: no λ² is too large for it).
type PathPoint struct {
	K                       int
	Objective               float64
	Lambda2Low, Lambda2High float64
}

// LambdaPath reads, off the objective of each K a stepwise run tried, the best K for
// every λ² at once (MAD-Bayes §5 fixes one λ²): argmin_K obj(K) + λ²K is a vertex of
// the lower convex hull of the points (K, obj(K)), and vertex K_i wins for λ² between
// the slopes of the hull's edges on either side of it. Points on an edge of the hull
// (a K that ties for a single λ²) and points that do not lower the objective (a flat
// tail, which wins only at λ² = 0) are not vertices. The path is in increasing K; the
// curve need not be sorted or free of repeats (the first of a K counts).
func LambdaPath(curve []learn.CurvePoint) []PathPoint {
	pts := make([]learn.CurvePoint, 0, len(curve))
	seen := map[int]bool{}
	for _, c := range curve {
		if !seen[c.K] && !math.IsNaN(c.Objective) && !math.IsInf(c.Objective, 0) {
			seen[c.K] = true
			pts = append(pts, c)
		}
	}
	slices.SortStableFunc(pts, func(a, b learn.CurvePoint) int { return cmp.Compare(a.K, b.K) })
	// Andrew's monotone chain, lower hull only, keeping strict turns: a point on the
	// segment between its neighbours is dropped.
	var hull []learn.CurvePoint
	for _, p := range pts {
		if len(hull) > 0 && p.Objective >= hull[len(hull)-1].Objective {
			continue // a larger K that does not lower the objective never wins for λ² > 0
		}
		for len(hull) >= 2 && !below(hull[len(hull)-2], hull[len(hull)-1], p) {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	path := make([]PathPoint, len(hull))
	for i, h := range hull {
		path[i] = PathPoint{K: h.K, Objective: h.Objective, Lambda2High: math.Inf(1)}
		if i > 0 {
			path[i].Lambda2High = slope(hull[i-1], h)
		}
		if i+1 < len(hull) {
			path[i].Lambda2Low = slope(h, hull[i+1])
		}
	}
	return path
}

// MostStable picks the K a user wants when they give no λ²: of the path's vertices
// other than its first and last (whose intervals reach +Inf or 0 only because the run
// tried no smaller or larger K), the one whose λ² interval is widest on a log scale,
// with λ² at the interval's geometric centre. Widths within StableTie of the widest
// count as ties, and ties go to the smaller K. It returns false when the path has no
// such vertex.
func MostStable(path []PathPoint) (i int, lambda2 float64, ok bool) {
	width := func(p PathPoint) float64 {
		if !(p.Lambda2Low > 0) {
			return math.Inf(-1)
		}
		return math.Log(p.Lambda2High / p.Lambda2Low)
	}
	widest := math.Inf(-1)
	for j := 1; j+1 < len(path); j++ {
		widest = max(widest, width(path[j]))
	}
	if math.IsInf(widest, -1) {
		return 0, 0, false
	}
	for j := 1; j+1 < len(path); j++ {
		if width(path[j]) >= StableTie*widest {
			i = j
			break
		}
	}
	return i, math.Sqrt(path[i].Lambda2Low * path[i].Lambda2High), true
}

// StableTie is how close, as a share of the widest log-width, another K's λ² interval
// must come to tie with it. Past the true K the objective falls by what the noise gives
// up, and those falls can by chance make an overfitted K's interval a little wider than
// the true K's, as on the built-in tabletop sample once the restarts fit the K past it
// well. The smaller of two nearly equally stable K explains the data as well with fewer
// features. The margin is narrow on purpose: on the real tabletop photos the K below
// the answer comes close too (docs/DESIGN.md, "Measurements behind the code").
const StableTie = 0.95

// slope is the objective's fall per feature from a to b (a.K < b.K): the λ² at which
// the two K tie.
func slope(a, b learn.CurvePoint) float64 {
	return (a.Objective - b.Objective) / float64(b.K-a.K)
}

// below reports whether b lies strictly below the segment from a to c, i.e. the hull
// turns upward at b.
func below(a, b, c learn.CurvePoint) bool {
	return slope(a, b) > slope(b, c)
}
