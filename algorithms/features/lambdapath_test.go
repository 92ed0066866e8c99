package features

import (
	"math"
	"testing"

	"featurelab/algorithms/learn"
)

func curveOf(obj ...float64) []learn.CurvePoint {
	c := make([]learn.CurvePoint, len(obj))
	for i, o := range obj {
		c[i] = learn.CurvePoint{K: i + 1, Objective: o}
	}
	return c
}

// TestLambdaPath checks the hull and each K's λ² interval on hand-made curves.
func TestLambdaPath(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name   string
		curve  []learn.CurvePoint
		want   []PathPoint
		stable int // K MostStable picks, 0 for none
		lambda float64
	}{
		{
			// The real tabletop photos (issue 16): K = 5 wins for λ² from 10.5 to 44.6,
			// a ratio of 4.2, the widest; the paper's answer.
			name:  "real tabletop",
			curve: curveOf(615.9, 423.2, 295.3, 205.8, 161.2, 150.7, 142.2, 136.2),
			want: []PathPoint{{1, 615.9, 192.7, inf}, {2, 423.2, 127.9, 192.7}, {3, 295.3, 89.5, 127.9},
				{4, 205.8, 44.6, 89.5}, {5, 161.2, 10.5, 44.6}, {6, 150.7, 8.5, 10.5}, {7, 142.2, 6, 8.5}, {8, 136.2, 0, 6}},
			stable: 5, lambda: math.Sqrt(10.5 * 44.6),
		},
		{
			// The built-in tabletop sample (four objects on a base): past K = 5 the falls
			// are noise, yet K = 6's interval (ratio 10.4) is a hair wider than K = 5's
			// (10.0). Within StableTie they tie, and the smaller K wins.
			name:  "built-in sample, a near tie",
			curve: curveOf(804.7, 608.2, 417.8, 239.5, 74.0, 57.5, 55.9),
			want: []PathPoint{{1, 804.7, 196.5, inf}, {2, 608.2, 190.4, 196.5}, {3, 417.8, 178.3, 190.4},
				{4, 239.5, 165.5, 178.3}, {5, 74.0, 16.5, 165.5}, {6, 57.5, 1.6, 16.5}, {7, 55.9, 0, 1.6}},
			stable: 5, lambda: math.Sqrt(16.5 * 165.5),
		},
		{
			// K = 2 lies on the segment from K = 1 to K = 3: it ties for λ² = 10 only.
			name:   "a tie on an edge",
			curve:  curveOf(100, 90, 80, 78),
			want:   []PathPoint{{1, 100, 10, inf}, {3, 80, 2, 10}, {4, 78, 0, 2}},
			stable: 3, lambda: math.Sqrt(20),
		},
		{
			name:  "a single K",
			curve: curveOf(50),
			want:  []PathPoint{{1, 50, 0, inf}},
		},
		{
			// From K = 4 on nothing falls: those K win only at λ² = 0.
			name:   "a flat tail",
			curve:  curveOf(100, 40, 20, 15, 15, 15.5),
			want:   []PathPoint{{1, 100, 60, inf}, {2, 40, 20, 60}, {3, 20, 5, 20}, {4, 15, 0, 5}},
			stable: 3, lambda: 10,
		},
		{
			// A K that rose (stepwise's last) is above the hull; K = 3 beats K = 2 at
			// every λ² below 30 and is the last vertex, so only K = 2 is interior.
			name:   "a rise and unsorted input",
			curve:  []learn.CurvePoint{{K: 4, Objective: 90}, {K: 1, Objective: 100}, {K: 3, Objective: 10}, {K: 2, Objective: 40}},
			want:   []PathPoint{{1, 100, 60, inf}, {2, 40, 30, 60}, {3, 10, 0, 30}},
			stable: 2, lambda: math.Sqrt(1800),
		},
	} {
		got := LambdaPath(tc.curve)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: path %+v, want %+v", tc.name, got, tc.want)
		}
		for i, w := range tc.want {
			g := got[i]
			if g.K != w.K || g.Objective != w.Objective || math.Abs(g.Lambda2Low-w.Lambda2Low) > 1e-9 ||
				(math.IsInf(w.Lambda2High, 1) != math.IsInf(g.Lambda2High, 1)) ||
				(!math.IsInf(w.Lambda2High, 1) && math.Abs(g.Lambda2High-w.Lambda2High) > 1e-9) {
				t.Errorf("%s: point %d is %+v, want %+v", tc.name, i, g, w)
			}
		}
		i, lambda, ok := MostStable(got)
		switch {
		case tc.stable == 0 && ok:
			t.Errorf("%s: picked K = %d with no interior vertex", tc.name, got[i].K)
		case tc.stable != 0 && (!ok || got[i].K != tc.stable || math.Abs(lambda-tc.lambda) > 1e-9):
			t.Errorf("%s: picked K = %d (ok %v) at λ² = %v, want K = %d at %v", tc.name, got[i].K, ok, lambda, tc.stable, tc.lambda)
		}
		// Every vertex is the best K inside its interval.
		for _, p := range got {
			if math.IsInf(p.Lambda2High, 1) || !(p.Lambda2Low > 0) {
				continue
			}
			l := math.Sqrt(p.Lambda2Low * p.Lambda2High)
			for _, c := range tc.curve {
				if c.Objective+l*float64(c.K) < p.Objective+l*float64(p.K)-1e-9 {
					t.Errorf("%s: at λ² = %v K = %d beats path vertex K = %d", tc.name, l, c.K, p.K)
				}
			}
		}
	}
}
