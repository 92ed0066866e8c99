package segment

import (
	"math"
	"slices"
	"testing"
)

func TestAtomPrior(t *testing.T) {
	// γ = 1: the Chinese restaurant seats the located clusters (all but the last) one
	// by one, a new table with probability 1/(i+1), table a with n_a/(i+1).
	for _, tc := range []struct {
		atom []int
		want float64
	}{
		{[]int{0, 1}, 0},                           // one located cluster
		{[]int{0, 0, 2}, math.Log(1.0 / 2)},        // {0,1}: 1 · 1/2
		{[]int{0, 1, 2}, math.Log(1.0 / 2)},        // {0},{1}: 1 · 1/2
		{[]int{0, 0, 1, 3}, math.Log(1.0 / 6)},     // {0,1},{2}: 1 · 1/2 · 1/3
		{[]int{2, 2, 2, 3}, math.Log(2.0 / 6)},     // {0,1,2}: 1 · 1/2 · 2/3
		{[]int{1, 0, 1, 0, 4}, math.Log(1.0 / 24)}, // {0,2},{1,3}: 1 · 1/2 · 1/3 · 1/4
	} {
		if got := atomPrior(tc.atom); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("atomPrior(%v) = %v, want %v", tc.atom, got, tc.want)
		}
	}
}

func TestFreeAtom(t *testing.T) {
	for _, tc := range []struct {
		atom []int
		e    int
		want int
	}{
		{[]int{0, 1, 2}, 1, 1}, // alone: keeps its own
		{[]int{0, 0, 2}, 1, 1}, // shares 0: id 1 is free
		{[]int{1, 1, 2}, 0, 0}, // shares 1: id 0 is free
	} {
		if got := freeAtom(tc.atom, tc.e); got != tc.want {
			t.Errorf("freeAtom(%v, %d) = %d, want %d", tc.atom, tc.e, got, tc.want)
		}
	}
}

func TestSharedColourModel(t *testing.T) {
	// Two clusters pointing to one atom get the same q(θ), fitted to their pooled
	// statistics, and the bound counts its KL once: it still lies between the passes
	// around the screen's bound, which sums the terms by atom, and never falls.
	img, _ := blocksImage(48, 36, 3)
	m := newTestModel(t, img, Options{Seed: 1})
	for it := 0; it < 3; it++ {
		if _, err := m.iterate(it == 0); err != nil {
			t.Fatal(err)
		}
	}
	m.atom[1] = m.atom[0]
	b, err := m.iterate(false)
	if err != nil {
		t.Fatal(err)
	}
	for it := 0; it < 6; it++ {
		want := newNWCluster(m.D)
		n, m1, m2 := m.setStats(m.tot, []int{0, 1})
		if err := want.update(m.prior, n, m1, m2); err != nil {
			t.Fatal(err)
		}
		s := m.screenBound(m.newScreen())
		m.skipAlpha = true
		next, err := m.iterate(false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []int{0, 1} {
			if !slices.Equal(m.clusters[c].m, want.m) || !slices.Equal(m.clusters[c].winv, want.winv) {
				t.Fatalf("iteration %d: cluster %d's q(θ) is not the pooled one", it, c)
			}
		}
		tol := 1e-9 * math.Abs(s)
		if s < b-tol || next < s-tol {
			t.Fatalf("iteration %d: pass %v, screen %v, next pass %v", it, b, s, next)
		}
		b = next
	}
}
