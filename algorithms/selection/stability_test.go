package selection

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"featurelab/algorithms"
	"featurelab/algorithms/learn"
)

// TestStabilityTellsAnObjectFromNoise: on 40 rows made of a base, one clear feature
// owned by half of them and small noise, the true code holds on every held-out half
// (1); a code column drawn at random, which the data do not carry, is claimed by other
// images when fitted from the other half and holds on fewer. Clusterings, the IBP and
// too few images are not checked (nil).
func TestStabilityTellsAnObjectFromNoise(t *testing.T) {
	const n, d = 40, 6
	rng := rand.New(rand.NewPCG(1, 2))
	Z := mat.NewDense(n, 3, nil)
	X := mat.NewDense(n, d, nil)
	for i := range n {
		Z.Set(i, 0, 1)
		on := i%2 == 0
		if on {
			Z.Set(i, 1, 1)
		}
		if rng.IntN(2) == 0 {
			Z.Set(i, 2, 1)
		}
		for j := range d {
			v := 1.0 + 0.05*rng.NormFloat64()
			if on && j < 3 {
				v += 2
			}
			X.Set(i, j, v)
		}
	}
	res := &learn.Result{K: 3, Z: Z}
	got := Stability(X, algorithms.MustLookup("kfeatures"), res, 1)
	if len(got) != 3 {
		t.Fatalf("stability of %d features, want 3", len(got))
	}
	if got[1] != 1 {
		t.Errorf("the clear feature holds on %.2f of the halves, want all", got[1])
	}
	if got[2] >= got[1] {
		t.Errorf("the random column holds on %.2f of the halves, the clear feature on %.2f: want fewer", got[2], got[1])
	}
	for _, name := range []string{"kmeans", "ibp"} {
		if s := Stability(X, algorithms.MustLookup(name), res, 1); s != nil {
			t.Errorf("%s: stability %v, want none checked", name, s)
		}
	}
	if s := Stability(X.Slice(0, 6, 0, d).(*mat.Dense), algorithms.MustLookup("kfeatures"), &learn.Result{K: 1, Z: Z.Slice(0, 6, 0, 1).(*mat.Dense)}, 1); s != nil {
		t.Errorf("6 images: stability %v, want none checked", s)
	}
}
