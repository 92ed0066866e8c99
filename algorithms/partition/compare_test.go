package partition

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestRandIndexAndVI(t *testing.T) {
	ln2 := math.Log(2)
	for _, tc := range []struct {
		name   string
		a, b   []int32
		ri, vi float64
	}{
		{"identical", []int32{0, 0, 1, 1, 2}, []int32{0, 0, 1, 1, 2}, 1, 0},
		{"relabelled", []int32{0, 0, 1, 1, 2}, []int32{7, 7, -3, -3, 5}, 1, 0},
		// Pairs: a joins {0,1},{2,3}; b joins {0,2},{1,3}; only {0,3} and {1,2} are split
		// by both: 2 of 6. The labelings are independent, each of entropy ln 2.
		{"crossed", []int32{0, 0, 1, 1}, []int32{0, 1, 0, 1}, 2.0 / 6, 2 * ln2},
		// One segment against four: every pair disagrees; VI = H(b) = ln 4.
		{"one vs all", []int32{0, 0, 0, 0}, []int32{0, 1, 2, 3}, 0, 2 * ln2},
		// a = {0,1,2},{3}; b = {0,1},{2,3}: agreeing pairs {0,1} (joined) and {0,3}, {1,3}
		// (split): 3 of 6.
		{"nested", []int32{0, 0, 0, 1}, []int32{0, 0, 1, 1}, 3.0 / 6, viNested()},
		{"single pixel", []int32{4}, []int32{9}, 1, 0},
	} {
		if got := RandIndex(tc.a, tc.b); math.Abs(got-tc.ri) > 1e-12 {
			t.Errorf("%s: RandIndex = %v, want %v", tc.name, got, tc.ri)
		}
		if got := VariationOfInformation(tc.a, tc.b); math.Abs(got-tc.vi) > 1e-12 {
			t.Errorf("%s: VariationOfInformation = %v, want %v", tc.name, got, tc.vi)
		}
	}
}

// viNested is H(A|B) + H(B|A) for a = {0,1,2},{3}, b = {0,1},{2,3}: the contingency
// table has cells 2 (a0,b0), 1 (a0,b1), 1 (a1,b1) of 4.
func viNested() float64 {
	// VI = −Σ r_ij [ln(r_ij/p_i) + ln(r_ij/q_j)], p = (3/4, 1/4), q = (1/2, 1/2).
	cell := func(r, p, q float64) float64 { return -r * (math.Log(r/p) + math.Log(r/q)) }
	return cell(0.5, 0.75, 0.5) + cell(0.25, 0.75, 0.5) + cell(0.25, 0.25, 0.5)
}

func TestRandIndexMatchesPairCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.IntN(60)
		a, b := make([]int32, n), make([]int32, n)
		for i := range a {
			a[i], b[i] = int32(rng.IntN(4)), int32(rng.IntN(5))
		}
		agree, total := 0, 0
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				total++
				if (a[i] == a[j]) == (b[i] == b[j]) {
					agree++
				}
			}
		}
		if got, want := RandIndex(a, b), float64(agree)/float64(total); math.Abs(got-want) > 1e-12 {
			t.Fatalf("n=%d: RandIndex = %v, brute force %v", n, got, want)
		}
		if vi := VariationOfInformation(a, b); vi < 0 || vi > math.Log(float64(n))*2 {
			t.Fatalf("VI %v out of range", vi)
		}
	}
}

func TestProbabilisticRandIndex(t *testing.T) {
	seg := []int32{0, 0, 1, 1}
	truths := [][]int32{{0, 0, 1, 1}, {0, 1, 0, 1}}
	if got, want := ProbabilisticRandIndex(seg, truths), (1+2.0/6)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("PRI = %v, want %v", got, want)
	}
	if got := ProbabilisticRandIndex(seg, nil); got != 0 {
		t.Errorf("PRI without references = %v, want 0", got)
	}
}

func TestEvalLengthMismatch(t *testing.T) {
	a, b := []int32{0, 1, 1}, []int32{0, 1}
	if got := RandIndex(a, b); got != 0 {
		t.Errorf("RandIndex of different lengths = %v, want 0", got)
	}
	if got := ProbabilisticRandIndex(a, [][]int32{a, b}); got != 0 {
		t.Errorf("PRI with a reference of another length = %v, want 0", got)
	}
	if got := VariationOfInformation(a, b); !math.IsInf(got, 1) {
		t.Errorf("VI of different lengths = %v, want +Inf", got)
	}
}

func BenchmarkRandIndex(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := make([]int32, 481*321), make([]int32, 481*321)
	for i := range x {
		x[i], y[i] = int32(rng.IntN(20)), int32(rng.IntN(8))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		RandIndex(x, y)
	}
}

// TestNMIAndARI checks the two chance-aware scores on cases with known answers: the same
// partition under other numbers, the degenerate partitions, independent halves, and
// different lengths.
func TestNMIAndARI(t *testing.T) {
	for _, tc := range []struct {
		name     string
		a, b     []int32
		nmi, ari float64
	}{
		{"renumbered", []int32{0, 0, 1, 1, 2}, []int32{7, 7, 3, 3, 9}, 1, 1},
		{"both one part", []int32{0, 0, 0}, []int32{4, 4, 4}, 1, 1},
		{"one part against two", []int32{0, 0, 0, 0}, []int32{0, 0, 1, 1}, 0, 0},
		{"every item alone, twice", []int32{0, 1, 2}, []int32{5, 6, 7}, 1, 1},
		// Independent halves: knowing one says nothing of the other. Pairs joined by
		// both 0, by a 2, by b 2, of 6: expected 4/6, ARI (0 − 2/3)/(2 − 2/3) = −1/2.
		{"independent", []int32{0, 0, 1, 1}, []int32{0, 1, 0, 1}, 0, -0.5},
		{"lengths differ", []int32{0, 1}, []int32{0, 1, 1}, 0, 0},
		{"empty", nil, nil, 0, 0},
	} {
		if got := NMI(tc.a, tc.b); math.Abs(got-tc.nmi) > 1e-12 {
			t.Errorf("%s: NMI %v, want %v", tc.name, got, tc.nmi)
		}
		if got := AdjustedRandIndex(tc.a, tc.b); math.Abs(got-tc.ari) > 1e-12 {
			t.Errorf("%s: ARI %v, want %v", tc.name, got, tc.ari)
		}
	}
}
