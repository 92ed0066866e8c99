package ibp

import (
	"context"
	"math"
	"testing"

	"featurelab/algorithms/learn"
)

// TestIBPOwnershipMatchesByOwners records samples whose features come in other orders,
// one with a row flipped and one with a feature missing, and checks that each image's
// probability of each reference feature counts the samples in which it owns its match.
func TestIBPOwnershipMatchesByOwners(t *testing.T) {
	const n = 70 // more than one word of bits
	zOf := func(k int, col func(f, i int) bool) *chain {
		c := &chain{n: n, k: k, kc: k, z: make([]float64, n*k)}
		for i := 0; i < n; i++ {
			for f := 0; f < k; f++ {
				if col(f, i) {
					c.z[i*k+f] = 1
				}
			}
		}
		return c
	}
	a := func(i int) bool { return i%2 == 0 }
	b := func(i int) bool { return i < 30 }
	ref := zOf(2, func(f, i int) bool { return []func(int) bool{a, b}[f](i) })
	s := newSamples(n)
	s.add(ref)
	s.add(zOf(2, func(f, i int) bool { return []func(int) bool{b, a}[f](i) })) // swapped
	s.add(zOf(2, func(f, i int) bool {                                         // a with row 65 flipped, then b
		if f == 0 {
			return a(i) != (i == 65)
		}
		return b(i)
	}))
	s.add(zOf(1, func(f, i int) bool { return b(i) })) // a missing
	p := s.ownership(ref.z, n, 2)
	for i := 0; i < n; i++ {
		wantA := 0.0
		if a(i) {
			wantA = 3.0 / 4
		}
		if i == 65 {
			wantA = 1.0 / 4
		}
		wantB := 0.0
		if b(i) {
			wantB = 1
		}
		if math.Abs(p.At(i, 0)-wantA) > 1e-12 || math.Abs(p.At(i, 1)-wantB) > 1e-12 {
			t.Fatalf("row %d: probabilities %.3f %.3f, want %.3f %.3f", i, p.At(i, 0), p.At(i, 1), wantA, wantB)
		}
	}
}

// TestIBPZProbabilityOnTetris checks the result's probabilities on the tetris data: one
// per image and feature, within [0, 1], and on the side of ½ of the final Z for almost
// every bit (the posterior there is sharp).
func TestIBPZProbabilityOnTetris(t *testing.T) {
	X, _, _ := tetris(1)
	res, err := Gibbs(context.Background(), X, learn.Options{Seed: 1, Chains: 4, Sweeps: 200})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := X.Dims()
	if r, c := res.ZProbability.Dims(); r != n || c != res.K {
		t.Fatalf("z probability is %d×%d, want %d×%d", r, c, n, res.K)
	}
	off := 0
	for i := 0; i < n; i++ {
		for f := 0; f < res.K; f++ {
			p := res.ZProbability.At(i, f)
			if p < 0 || p > 1 {
				t.Fatalf("probability %v at %d, %d", p, i, f)
			}
			if (p > 0.5) != (res.Z.At(i, f) != 0) {
				off++
			}
		}
	}
	if off > n*res.K/50 {
		t.Errorf("%d of %d bits of Z are on the other side of ½ from their probability", off, n*res.K)
	}
}
