package segment

import (
	"math"
	"slices"
	"testing"
)

// stepImage is a 4×2 picture whose right half differs from its left by 3 colour
// spreads: a step across costs β·(3 − edgeThreshold) = 2β beyond its length.
func stepImage(cell int, beta float64) *kpyp {
	p := &pixels{W: 4, H: 2, N: 8, D: 3, Y: make([]float64, 8*3)}
	for n := 0; n < 8; n++ {
		if n%4 >= 2 {
			p.Y[n*3] = 3
		}
	}
	m := &kpyp{p: p, C: 1, cell: cell, GH: (2 + cell - 1) / cell, GW: (4 + cell - 1) / cell}
	m.geo = newGeodesic(m, beta)
	return m
}

func TestGeodesicDistances(t *testing.T) {
	// Steps cost 1/W = 0.25 across and 1/H = 0.5 down; the colour step adds 2β = 4.
	for _, tc := range []struct {
		name string
		cell int
		src  int
		want []float64
	}{
		{"pixels from the top left", 1, 0, []float64{0, 0.25, 4.5, 4.75, 0.5, 0.75, 5, 5.25}},
		{"pixels from the bottom right", 1, 7, []float64{5.25, 5, 0.75, 0.5, 4.75, 4.5, 0.25, 0}},
		// A cell's distance is the least of its pixels': from the left 2×2 cell, the
		// right one is one step and one edge away.
		{"2×2 cells", 2, 0, []float64{0, 4.25}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := stepImage(tc.cell, 2)
			got := make([]float64, m.GH*m.GW)
			m.cellDistances(tc.src, got, 1)
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-12 {
					t.Fatalf("distances %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestDistHeapOrders(t *testing.T) {
	var h distHeap
	in := []float64{5, 1, 4, 1, 5, 9, 2, 6, 5, 3}
	for i, d := range in {
		h.push(distItem{i, d})
	}
	var out []float64
	for len(h) > 0 {
		out = append(out, h.pop().d)
	}
	want := slices.Clone(in)
	slices.Sort(want)
	if !slices.Equal(out, want) {
		t.Fatalf("popped %v, want %v", out, want)
	}
}

func TestGeodesicLocationStepRaisesBound(t *testing.T) {
	// The search over location cells and the L-BFGS step on ψ_c must not lower the bound
	// with q(v) at its optimum.
	img, _ := blocksImage(64, 48, 5)
	m := newTestModel(t, img, Options{Seed: 3, Width: 0.2, LearnWidths: true})
	for it := 0; it < 3; it++ {
		if _, err := m.iterate(it == 0); err != nil {
			t.Fatal(err)
		}
	}
	before := m.screenBound(m.newScreen())
	state := slices.Concat(m.width, m.geo.kern)
	m.geoRefine()
	after := m.screenBound(m.newScreen())
	if after < before-1e-9*math.Abs(before) {
		t.Fatalf("location step lowered the bound: %v → %v", before, after)
	}
	if slices.Equal(state, slices.Concat(m.width, m.geo.kern)) {
		t.Error("location step changed nothing")
	}
}

func TestSplitScreenIsExact(t *testing.T) {
	// Force the two red regions into one cluster located in the left one; the right
	// one, across the blue band's edges, is then a far piece. The bound the split move
	// screens must be the bound of the state it makes — what keeps the move from ever
	// lowering it — whether or not the bound prefers the split.
	colours := [][3]float64{{0.8, 0.2, 0.15}, {0.15, 0.3, 0.75}, {0.8, 0.2, 0.15}}
	img, _ := synthImage(64, 40, colours, func(x, y int) int { return min(3*x/64, 2) }, 0.15, 2)
	m := newTestModel(t, img, Options{Seed: 1})
	for it := 0; it < 12; it++ {
		if _, err := m.iterate(it == 0); err != nil {
			t.Fatal(err)
		}
		if it%4 == 3 {
			m.mergeRound()
		}
	}
	W := m.p.W
	left, right := m.labels[8*W+1], m.labels[8*W+W-2]
	if left != right {
		m.merge(int(min(left, right)), int(max(left, right)), 0, 0, int(left))
		if _, err := m.iterate(false); err != nil {
			t.Fatal(err)
		}
	}
	c := int(m.labels[8*W+1])
	if int(m.labels[8*W+W-2]) != c {
		t.Fatal("the forced merge did not hold for one iteration")
	}
	sc := m.newScreen()
	pieces := m.pixelPieces(labelComponents(m.labels, m.p.W, m.p.H), c)
	if len(pieces) == 0 {
		t.Fatal("no far piece")
	}
	piece := pieces[0]
	if !slices.Contains(piece, 8*W+W-2) {
		t.Fatal("the largest far piece is not the right region")
	}
	e := (c + 1) % (m.C - 1)
	before := m.screenBound(sc)
	gain, apply := m.splitGain(sc, c, e, piece, m.cellOf(8*W+W-2))
	apply()
	after := m.screenBound(m.newScreen())
	t.Logf("piece of %d pixels to cluster %d: bound %v → %v, screened gain %v", len(piece), e, before, after, gain)
	if math.Abs(after-before-gain) > 1e-9*math.Abs(before) {
		t.Fatalf("screened gain %v, actual %v", gain, after-before)
	}
	if m.labels[8*W+1] == m.labels[8*W+W-2] {
		t.Error("left and right regions still share a label after the split")
	}
	// Both pieces are the same red: the new cluster shares c's colour model.
	if m.atom[e] != m.atom[c] {
		t.Errorf("cluster %d took colour model %d, not %d's %d", e, m.atom[e], c, m.atom[c])
	}
}
