package features

import (
	"math/bits"
)

// The block Z-step is K-features' Z-step above kfExactK features, where walking all 2^K
// codes of every row costs more than the rest of an iteration, and at the largest K
// most of a stepwise run. It minimises
// zᵀGz − 2zᵀb block by block: with the bits outside a block B fixed, the part that
// depends on z_B is
//
//	z_Bᵀ G_BB z_B − 2 z_Bᵀ c_B,  c_B = b_B − G_{B,R} z_R,
//
// a problem of the same form over |B| ≤ zBlockSize bits, solved exactly by zStepExact
// with a table of G_BB built once per iteration. Blocks are visited until none improves
// its part, so a row ends at a code no block move improves: every single flip, and every
// joint change of bits within a block (a row trading one feature for two others in the
// same block), has been tried. Two partitions of the bits are used, the second shifted
// by half a block, so that bits at a boundary of one share a block in the other.

// zBlockSize is the largest block: chosen on the ORL faces, where it does as well as
// larger blocks in about half the time and smaller ones lose joint moves that matter
// (docs/DESIGN.md, "Measurements behind the code").
const zBlockSize = 6

// zBlock is one block of bits and the tables of its sub-matrix G_BB.
type zBlock struct {
	bits  []int // the features in the block, ascending
	walk  *grayWalk
	g     []float64 // G_BB, |B|×|B|
	q, qg []float64 // quadTable of G_BB
}

// zBlocks is a block Z-step for K features: two partitions' blocks and their tables.
type zBlocks struct {
	k      int
	blocks []zBlock
	gz     []float64 // Gz for the row's current code
	c      []float64 // c_B of the block being solved
	bb     [2 * maxExactK]float64

	// The blocks laid end to end, for stepRows: block t's size, its bits (zBlockSize a
	// block), and where its tables and its walk's flips begin in q, qg and flips (the
	// blocks' own q and qg are views of these).
	size, bits, off []int32
	q, qg           []float64
	flips           []uint8
}

// newZBlocks partitions K bits into blocks of at most zBlockSize: 0…5, 6…11, … and, when
// K > zBlockSize, also 3…8, 9…14, … with the leftover bits at both ends together.
func newZBlocks(k int) *zBlocks {
	zb := &zBlocks{k: k, gz: make([]float64, k), c: make([]float64, zBlockSize)}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	zb.addPartition(order)
	if k > zBlockSize {
		h := zBlockSize / 2
		zb.addPartition(append(order[h:len(order):len(order)], order[:h]...))
	}
	walks := map[int]*grayWalk{}
	total := 0
	for i := range zb.blocks {
		total += 1 << len(zb.blocks[i].bits)
	}
	zb.q, zb.qg = make([]float64, total), make([]float64, total)
	zb.bits = make([]int32, zBlockSize*len(zb.blocks))
	off := 0
	for i := range zb.blocks {
		blk := &zb.blocks[i]
		m := len(blk.bits)
		if walks[m] == nil {
			walks[m] = newGrayWalk(m)
		}
		blk.walk = walks[m]
		blk.g = make([]float64, m*m)
		blk.q = zb.q[off : off+1<<m]
		blk.qg = zb.qg[off : off+1<<m]
		zb.size = append(zb.size, int32(m))
		zb.off = append(zb.off, int32(off))
		for r, j := range blk.bits {
			zb.bits[zBlockSize*i+r] = int32(j)
		}
		zb.flips = append(zb.flips, blk.walk.flip...)
		off += 1 << m
	}
	return zb
}

// addPartition cuts order into consecutive blocks of zBlockSize bits (the last shorter),
// each block's bits ascending.
func (zb *zBlocks) addPartition(order []int) {
	for s := 0; s < len(order); s += zBlockSize {
		blk := append([]int(nil), order[s:min(s+zBlockSize, len(order))]...)
		for i := 1; i < len(blk); i++ { // insertion sort: at most zBlockSize bits
			for j := i; j > 0 && blk[j] < blk[j-1]; j-- {
				blk[j], blk[j-1] = blk[j-1], blk[j]
			}
		}
		zb.blocks = append(zb.blocks, zBlock{bits: blk})
	}
}

// setGram builds every block's tables from G = AAᵀ (K×K, row-major), once per Z-step.
func (zb *zBlocks) setGram(g []float64) {
	k := zb.k
	for bi := range zb.blocks {
		b := &zb.blocks[bi]
		m := len(b.bits)
		for r, i := range b.bits {
			for c, j := range b.bits {
				b.g[r*m+c] = g[i*k+j]
			}
		}
		quadTable(b.q, b.qg, b.g, m)
	}
}

// step improves the code z for the row with b = Ax block by block until no block's
// exact step beats its current part by more than tol, and returns the code and its value
// zᵀGz − 2zᵀb. g is the G that setGram was given.
func (zb *zBlocks) step(b, g []float64, z uint64, tol float64) (uint64, float64) {
	k := zb.k
	gz := zb.gz
	clear(gz)
	for r := z; r != 0; r &= r - 1 {
		row := g[bits.TrailingZeros64(r)*k:][:k]
		for i, v := range row {
			gz[i] += v
		}
	}
	for changed := true; changed; {
		changed = false
		for bi := range zb.blocks {
			blk := &zb.blocks[bi]
			c := zb.c[:len(blk.bits)]
			var cur uint64
			for r, i := range blk.bits {
				cur |= (z >> i & 1) << r
			}
			// c_i = b_i − (Gz)_i + Σ_{j∈B, z_j=1} G_ij: Gz without the block's own bits.
			for r, i := range blk.bits {
				s := b[i] - gz[i]
				for t, j := range blk.bits {
					if cur>>t&1 != 0 {
						s += g[i*k+j]
					}
				}
				c[r] = s
			}
			next, _ := zStepExact(c, blk.q, blk.qg, blk.walk, &zb.bb, cur, tol)
			if next == cur {
				continue
			}
			for r, i := range blk.bits {
				if (next^cur)>>r&1 == 0 {
					continue
				}
				sign := 1.0
				if next>>r&1 == 0 {
					sign = -1
				}
				z ^= 1 << i
				row := g[i*k:][:k]
				for j, v := range row {
					gz[j] += sign * v
				}
			}
			changed = true
		}
	}
	return z, codeQuad(z, g, k) - 2*codeDot(z, b)
}
