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

// TestZBlocksLocalMinimum checks the block Z-step used above kfExactK: its answer is
// no worse than the start, its reported value is right, and no change of one bit or of
// any set of bits within one block improves it.
func TestZBlocksLocalMinimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const d = 30
	for _, k := range []int{3, 9, 12, 17, 24, 64} {
		a, g, xs, bs := kfRandomAX(rng, k, d, 10)
		zb := newZBlocks(k)
		zb.setGram(g)
		for r, x := range xs {
			start := rng.Uint64() & (1<<k - 1)
			if k == 64 {
				start = rng.Uint64()
			}
			z, val := zb.step(bs[r], g, start, 0)
			xsq := kfDirectSS(x, a, 0, d)
			got := kfDirectSS(x, a, z, d)
			if math.Abs(xsq+val-got) > 1e-9*xsq {
				t.Fatalf("K=%d row %d: reported %.12g, direct %.12g", k, r, xsq+val, got)
			}
			if got > kfDirectSS(x, a, start, d)+1e-9*xsq {
				t.Fatalf("K=%d row %d: the block step made the fit worse", k, r)
			}
			for _, blk := range zb.blocks {
				for sub := uint64(1); sub < 1<<len(blk.bits); sub++ {
					var flip uint64
					for i, bit := range blk.bits {
						flip |= (sub >> i & 1) << bit
					}
					if v := kfDirectSS(x, a, z^flip, d); v < got-1e-9*xsq {
						t.Fatalf("K=%d row %d: changing bits %b of block %v still helps (%.9g < %.9g)", k, r, flip, blk.bits, v, got)
					}
				}
			}
		}
	}
}

// TestZBlocksPartitions checks that each partition covers every bit once, and that two
// neighbouring bits cut apart by one partition share a block in the other.
func TestZBlocksPartitions(t *testing.T) {
	for _, k := range []int{1, 8, 9, 16, 17, 30, 64} {
		zb := newZBlocks(k)
		block := [2][]int{make([]int, k), make([]int, k)} // partition → bit → block
		seen := [2][]int{make([]int, k), make([]int, k)}
		part, covered := 0, 0
		for bi, blk := range zb.blocks {
			if len(blk.bits) == 0 || len(blk.bits) > zBlockSize {
				t.Fatalf("K=%d: block %v has %d bits", k, blk.bits, len(blk.bits))
			}
			for _, i := range blk.bits {
				seen[part][i]++
				block[part][i] = bi
			}
			if covered += len(blk.bits); covered == k {
				part, covered = part+1, 0
			}
		}
		if want := 1 + min(1, (k-1)/zBlockSize); part != want {
			t.Fatalf("K=%d: %d partitions, want %d", k, part, want)
		}
		for p := 0; p < part; p++ {
			for i, c := range seen[p] {
				if c != 1 {
					t.Fatalf("K=%d: partition %d has bit %d %d times", k, p, i, c)
				}
			}
		}
		for i := 0; part == 2 && i+1 < k; i++ {
			if block[0][i] != block[0][i+1] && block[1][i] != block[1][i+1] {
				t.Errorf("K=%d: bits %d and %d never share a block", k, i, i+1)
			}
		}
	}
}

// TestZStepExactRowsMatches checks that the all-rows exact step (vector lanes where the
// build has them) chooses, for every row, the code zStepExact chooses, to the bit: for
// K = 1…10, row counts that do and do not fill the lanes, random starting codes, and
// rows with ties (a repeated feature).
func TestZStepExactRowsMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 4))
	for k := 1; k <= kfExactK; k++ {
		for _, n := range []int{1, 7, 8, 13, 64} {
			_, g, _, bs := kfRandomAX(rng, k, 6, n)
			if k >= 2 { // features 0 and 1 identical: ties the current code must win
				for j := 0; j < k; j++ {
					g[1*k+j], g[j*k+1] = g[0*k+j], g[j*k+0]
				}
				g[1*k+1] = g[0]
				for _, b := range bs {
					b[1] = b[0]
				}
			}
			walk := newGrayWalk(k)
			q, qg := make([]float64, 1<<k), make([]float64, 1<<k)
			quadTable(q, qg, g, k)
			bt := asColumns(bs, k)
			cur, tol := randomStarts(rng, n, k)
			out := make([]uint64, n)
			zStepExactRows(bt, q, qg, walk, cur, tol, out)
			var bb [2 * maxExactK]float64
			for i, b := range bs {
				if want, _ := zStepExact(b, q, qg, walk, &bb, cur[i], tol[i]); out[i] != want {
					t.Fatalf("K=%d n=%d row %d: all rows chose %b, one row %b", k, n, i, out[i], want)
				}
			}
		}
	}
}

// TestZBlocksStepRowsMatches checks that the all-rows block step (vector lanes where the
// build has them) ends every row at the code zBlocks.step ends it at, to the bit: for
// K from 11 to 64, row counts that do and do not fill the lanes, random starting codes,
// and a repeated feature whose ties the current code must win.
func TestZBlocksStepRowsMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 5))
	for _, k := range []int{11, 12, 17, 24, 30, 64} {
		for _, n := range []int{1, 9, 16, 37} {
			_, g, _, bs := kfRandomAX(rng, k, 40, n)
			for j := 0; j < k; j++ { // features 3 and 9 identical
				g[9*k+j], g[j*k+9] = g[3*k+j], g[j*k+3]
			}
			g[9*k+9] = g[3*k+3]
			for _, b := range bs {
				b[9] = b[3]
			}
			zb := newZBlocks(k)
			zb.setGram(g)
			bt := asColumns(bs, k)
			cur, tol := randomStarts(rng, n, k)
			out := make([]uint64, n)
			zb.stepRows(bt, g, cur, tol, out)
			for i, b := range bs {
				if want, _ := zb.step(b, g, cur[i], tol[i]); out[i] != want {
					t.Fatalf("K=%d n=%d row %d: all rows chose %b, one row %b", k, n, i, out[i], want)
				}
			}
		}
	}
}

// asColumns lays the rows' b (k values each) out as kfWork keeps Bᵀ: k × n, column i
// the b of row i.
func asColumns(bs [][]float64, k int) []float64 {
	n := len(bs)
	bt := make([]float64, k*n)
	for i, b := range bs {
		for j := range k {
			bt[j*n+i] = b[j]
		}
	}
	return bt
}

// randomStarts is, for n rows of k features, a random current code and a tie tolerance
// of about 1e-12 each.
func randomStarts(rng *rand.Rand, n, k int) (cur []uint64, tol []float64) {
	cur, tol = make([]uint64, n), make([]float64, n)
	for i := range cur {
		cur[i] = rng.Uint64()
		if k < 64 {
			cur[i] &= 1<<k - 1
		}
		tol[i] = 1e-12 * (1 + rng.Float64())
	}
	return cur, tol
}
