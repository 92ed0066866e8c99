package ibp

import (
	"math"
	"math/bits"
)

// maxBlock bounds cfg.block: the block state lives in fixed arrays.
const maxBlock = 8

// sampleSharedBlocks resamples the shared features of row i in blocks: the features are
// shuffled and cut into blocks of at most cfg.block, and each block's 2^b codes are drawn
// jointly from their exact conditional, prior ∏ (m_{−i,k}/N)^{z_k}(1 − m_{−i,k}/N)^{1−z_k}
// times the likelihood N(x_i; H₋ᵢ'z_i, σ_X²(1 + z_i'M₋ᵢz_i + sing)I). This is still a Gibbs
// step (on a block instead of a coordinate), so the target is unchanged; what it adds is
// moves that one-at-a-time flips cannot make, such as trading a pair of features for a
// third one equal to their sum, which lets redundant combination features die. The
// shuffle matters for correctness, not only mixing: see sampleSharedSingle.
//
// The codes are visited in Gray-code order, one flip apart. Within a block b, with
// u_b = H_b e and P_bb = H_b H_b', a flip of z_f by δ changes s by 2δw_f + M_ff, r = ‖e‖²
// by −2δu_f + P_ff, and w_b, u_b by δM_bf and −δP_bf: O(b) per code. Only the final
// change of the block touches w, e over all K features and D dimensions. Entry and exit
// conditions are those of sampleSharedSingle.
func (c *chain) sampleSharedBlocks(zi []float64, s, sing float64) (float64, float64) {
	k, kc, d := c.k, c.kc, c.d
	w, e := c.w[:k], c.e
	var r float64
	for _, v := range e {
		r += v * v
	}
	fp := c.fperm[:k]
	for f := range fp {
		fp[f] = f
	}
	c.rng.Shuffle(k, func(a, b int) { fp[a], fp[b] = fp[b], fp[a] })

	inv2s := 1 / (2 * c.sx * c.sx)
	hd := 0.5 * float64(d)
	var (
		lr     [maxBlock]float64 // log-odds of z_f = 1 under the prior
		wb, ub [maxBlock]float64
		mb, pb [maxBlock * maxBlock]float64
		with   [maxBlock + 1][]float64
		dots   [maxBlock + 1]float64
	)
	for start := 0; start < k; start += c.cfg.block {
		blk := fp[start:min(start+c.cfg.block, k)]
		nb := len(blk)
		orig, lp := 0, 0.0
		for j, f := range blk {
			lr[j] = c.logOdds[c.m[f]]
			lp += c.logOff[c.m[f]]
			if zi[f] != 0 {
				orig |= 1 << j
			}
			wb[j] = w[f]
			// u_f = H_f e and P_fg = H_f H_g for g up to f, several at a time.
			hf := c.H[f*d : f*d+d]
			with[0] = e
			for l, g := range blk[:j+1] {
				with[l+1] = c.H[g*d : g*d+d]
			}
			dotsWith(hf, with[:j+2], dots[:j+2])
			ub[j] = dots[0]
			for l, g := range blk[:j+1] {
				p := dots[l+1]
				pb[j*maxBlock+l], pb[l*maxBlock+j] = p, p
				mb[j*maxBlock+l], mb[l*maxBlock+j] = c.M[f*kc+g], c.M[f*kc+g]
			}
		}
		flip := func(j int, delta float64) {
			s += 2*delta*wb[j] + mb[j*maxBlock+j]
			r += -2*delta*ub[j] + pb[j*maxBlock+j]
			for l := 0; l < nb; l++ {
				wb[l] += delta * mb[j*maxBlock+l]
				ub[l] -= delta * pb[j*maxBlock+l]
			}
		}
		// Move the block to the all-zero code, then walk the Gray code.
		for j := 0; j < nb; j++ {
			if orig&(1<<j) != 0 {
				flip(j, -1)
			}
		}
		ll := c.blkLL[:1<<nb]
		base := 1 + s + sing
		ll[0] = -hd*math.Log(base) - r*inv2s/base + lp
		best := ll[0]
		code := 0
		for t := 1; t < len(ll); t++ {
			j := bits.TrailingZeros(uint(t))
			if code&(1<<j) == 0 {
				flip(j, 1)
				lp += lr[j]
			} else {
				flip(j, -1)
				lp -= lr[j]
			}
			code ^= 1 << j
			base = 1 + s + sing
			v := -hd*math.Log(base) - r*inv2s/base + lp
			ll[code] = v
			if v > best {
				best = v
			}
		}
		var tot float64
		for t, v := range ll {
			ll[t] = math.Exp(v - best)
			tot += ll[t]
		}
		x := c.rng.Float64() * tot
		target := 0
		for target < len(ll)-1 && x >= ll[target] {
			x -= ll[target]
			target++
		}
		for j := 0; j < nb; j++ {
			if (code^target)&(1<<j) != 0 {
				if target&(1<<j) != 0 {
					flip(j, 1)
				} else {
					flip(j, -1)
				}
			}
		}
		// Apply the block's change to z_i, w and e.
		for j, f := range blk {
			if (orig^target)&(1<<j) == 0 {
				continue
			}
			delta := -1.0
			if target&(1<<j) != 0 {
				delta = 1
			}
			zi[f] += delta
			c.applyFlip(f, delta, w, e)
		}
		if orig != target {
			r = 0 // recomputed, so rounding does not build up over the walk
			for _, v := range e {
				r += v * v
			}
		}
	}
	return s, r
}

// dotsWith sets dots[t] to x·ys[t] for every t, each sum taken in order of the entries as
// a plain loop takes it (so to the same bits), four at a time: a sum's additions wait on
// each other, and four sums in one pass over x keep the processor busy meanwhile.
func dotsWith(x []float64, ys [][]float64, dots []float64) {
	t := 0
	for ; t+4 <= len(ys); t += 4 {
		y0, y1, y2, y3 := ys[t][:len(x)], ys[t+1][:len(x)], ys[t+2][:len(x)], ys[t+3][:len(x)]
		var s0, s1, s2, s3 float64
		for q, v := range x {
			s0 += v * y0[q]
			s1 += v * y1[q]
			s2 += v * y2[q]
			s3 += v * y3[q]
		}
		dots[t], dots[t+1], dots[t+2], dots[t+3] = s0, s1, s2, s3
	}
	for ; t+2 <= len(ys); t += 2 {
		y0, y1 := ys[t][:len(x)], ys[t+1][:len(x)]
		var s0, s1 float64
		for q, v := range x {
			s0 += v * y0[q]
			s1 += v * y1[q]
		}
		dots[t], dots[t+1] = s0, s1
	}
	if t < len(ys) {
		y := ys[t][:len(x)]
		var s0 float64
		for q, v := range x {
			s0 += v * y[q]
		}
		dots[t] = s0
	}
}
