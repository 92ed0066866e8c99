package features

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// kfRandomAX returns a random K×D matrix A (row-major), G = AAᵀ, and m random rows x with
// their b = Ax.
func kfRandomAX(rng *rand.Rand, k, d, m int) (a, g []float64, xs, bs [][]float64) {
	a = make([]float64, k*d)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	g = make([]float64, k*k)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			for c := 0; c < d; c++ {
				g[i*k+j] += a[i*d+c] * a[j*d+c]
			}
		}
	}
	for r := 0; r < m; r++ {
		x := make([]float64, d)
		for c := range x {
			x[c] = 2 * rng.NormFloat64()
		}
		b := make([]float64, k)
		for i := range b {
			for c := 0; c < d; c++ {
				b[i] += a[i*d+c] * x[c]
			}
		}
		xs, bs = append(xs, x), append(bs, b)
	}
	return a, g, xs, bs
}

// kfDirectSS is ‖x − zA‖² evaluated in D, the brute-force reference.
func kfDirectSS(x, a []float64, z uint64, d int) float64 {
	var s float64
	for c := 0; c < d; c++ {
		v := x[c]
		for r := z; r != 0; r &= r - 1 {
			v -= a[bits.TrailingZeros64(r)*d+c]
		}
		s += v * v
	}
	return s
}

func TestGrayWalkVisitsAllCodes(t *testing.T) {
	for k := 1; k <= maxExactK; k++ {
		walk := newGrayWalk(k)
		n := 1 << k
		if len(walk.flip) != n {
			t.Fatalf("K=%d: walk has %d steps, want %d", k, len(walk.flip), n)
		}
		seen := make([]bool, n)
		seen[0] = true
		code := uint64(0)
		for i := 1; i < n; i++ {
			f := int(walk.flip[i])
			j, on := f, true
			if f >= k {
				j, on = f-k, false
			}
			if (code&(1<<j) == 0) != on {
				t.Fatalf("K=%d step %d: flip says bit %d turns on=%v, code %b", k, i, j, on, code)
			}
			code ^= 1 << j
			if code != grayCode(i) {
				t.Fatalf("K=%d step %d: walked to %b, grayCode says %b", k, i, code, grayCode(i))
			}
			if seen[code] {
				t.Fatalf("K=%d: code %b visited twice", k, code)
			}
			seen[code] = true
		}
		for c, ok := range seen {
			if !ok {
				t.Fatalf("K=%d: code %b never visited", k, c)
			}
		}
	}
}

func TestQuadTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{1, 2, 5, 9} {
		_, g, _, _ := kfRandomAX(rng, k, 6, 0)
		q, qg := make([]float64, 1<<k), make([]float64, 1<<k)
		quadTable(q, qg, g, k)
		for c := range q {
			want := codeQuad(uint64(c), g, k)
			if math.Abs(q[c]-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("K=%d code %b: q = %v, want %v", k, c, q[c], want)
			}
		}
		for i := range qg {
			if qg[i] != q[grayCode(i)] {
				t.Fatalf("K=%d: qg[%d] is not q[grayCode(%d)]", k, i, i)
			}
		}
	}
}

// TestZStepExactBruteForce compares the Gray-code Z-step with evaluating ‖x − zA‖² in D
// for every code, for K = 1…10 and random A, x and starting codes.
func TestZStepExactBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const d = 7
	for k := 1; k <= 10; k++ {
		a, g, xs, bs := kfRandomAX(rng, k, d, 20)
		walk := newGrayWalk(k)
		q, qg := make([]float64, 1<<k), make([]float64, 1<<k)
		quadTable(q, qg, g, k)
		var bb [2 * maxExactK]float64
		for r, x := range xs {
			xsq := kfDirectSS(x, a, 0, d)
			best, bestZ := math.Inf(1), uint64(0)
			for c := uint64(0); c < 1<<k; c++ {
				if v := kfDirectSS(x, a, c, d); v < best {
					best, bestZ = v, c
				}
			}
			cur := rng.Uint64() & (1<<k - 1)
			z, val := zStepExact(bs[r], q, qg, walk, &bb, cur, 1e-12*xsq)
			got := kfDirectSS(x, a, z, d)
			if got > best+1e-9*xsq {
				t.Fatalf("K=%d row %d: Z-step chose %b (%.12g), brute force %b (%.12g)", k, r, z, got, bestZ, best)
			}
			if math.Abs(xsq+val-got) > 1e-9*xsq {
				t.Fatalf("K=%d row %d: reported value %.12g, direct %.12g", k, r, xsq+val, got)
			}
		}
	}
}

// TestZStepExactKeepsTies checks that a code is only replaced by a strictly better one:
// with two identical features, owning either one is equally good.
func TestZStepExactKeepsTies(t *testing.T) {
	const k = 3
	g := []float64{1, 1, 0, 1, 1, 0, 0, 0, 4} // features 0 and 1 identical
	b := []float64{1, 1, 0}                   // x equals feature 0 (= feature 1)
	walk := newGrayWalk(k)
	q, qg := make([]float64, 1<<k), make([]float64, 1<<k)
	quadTable(q, qg, g, k)
	var bb [2 * maxExactK]float64
	for _, cur := range []uint64{0b001, 0b010} {
		if z, _ := zStepExact(b, q, qg, walk, &bb, cur, 1e-12); z != cur {
			t.Errorf("current code %03b replaced by the equally good %03b", cur, z)
		}
	}
	if z, _ := zStepExact(b, q, qg, walk, &bb, 0b100, 1e-12); z != 0b001 {
		t.Errorf("from 100 the first best code in Gray order is 001, got %03b", z)
	}
}

// TestZStepFlipsLocalMinimum checks the K > 16 Z-step: no single flip improves its answer,
// which is no worse than the start, and its reported value is right.
func TestZStepFlipsLocalMinimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const k, d = 24, 30
	a, g, xs, bs := kfRandomAX(rng, k, d, 10)
	gz := make([]float64, k)
	for r, x := range xs {
		start := rng.Uint64() & (1<<k - 1)
		z, val := zStepFlips(bs[r], g, k, start, gz, 0)
		xsq := kfDirectSS(x, a, 0, d)
		got := kfDirectSS(x, a, z, d)
		if math.Abs(xsq+val-got) > 1e-9*xsq {
			t.Fatalf("row %d: reported %.12g, direct %.12g", r, xsq+val, got)
		}
		if got > kfDirectSS(x, a, start, d)+1e-9 {
			t.Fatalf("row %d: flips made the fit worse", r)
		}
		for j := 0; j < k; j++ {
			if v := kfDirectSS(x, a, z^1<<j, d); v < got-1e-9*xsq {
				t.Fatalf("row %d: flipping bit %d still helps (%.9g < %.9g)", r, j, v, got)
			}
		}
	}
}
