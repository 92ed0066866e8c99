package algorithms

import (
	"math"
	"math/bits"
)

// sampleSharedBlocks resamples the shared features of row i in blocks: the features are
// shuffled and cut into blocks of at most cfg.block, and each block's 2^b codes are drawn
// jointly from their exact conditional, prior ∏ (m_{−i,k}/N)^{z_k}(1 − m_{−i,k}/N)^{1−z_k}
// times the likelihood N(x_i; H₋ᵢ'z_i, σ_X²(1 + z_i'M₋ᵢz_i + sing)I). This is still a Gibbs
// step (on a block instead of a coordinate), so the target is unchanged; what it adds is
// moves that one-at-a-time flips cannot make, such as trading a pair of features for a
// third one equal to their sum, which lets redundant combination features die.
//
// The codes are visited in Gray-code order, one flip apart; with u = H₋ᵢe and P = H₋ᵢH₋ᵢ'
// a flip of z_f by δ changes s by 2δw_f + M_ff, r = ‖e‖² by −2δu_f + P_ff, w by δM_f
// and u by −δP_f: O(K) per code. Entry and exit conditions are those of
// sampleSharedSingle.
func (c *ibpChain) sampleSharedBlocks(zi []float64, s, sing float64) (float64, float64) {
	k, kc, d := c.k, c.kc, c.d
	if k == 0 {
		var r float64
		for _, v := range c.e {
			r += v * v
		}
		return s, r
	}
	w, e, u := c.w[:k], c.e, c.u[:k]
	// P = HH', u = He.
	for a := 0; a < k; a++ {
		ha := c.H[a*d : a*d+d]
		for b := 0; b <= a; b++ {
			hb := c.H[b*d : b*d+d]
			var v float64
			for j, x := range ha {
				v += x * hb[j]
			}
			c.P[a*kc+b], c.P[b*kc+a] = v, v
		}
	}
	c.refreshU()
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
	hd := 0.5 * float64(c.d)
	nf := float64(c.n)
	var lr [64]float64 // log-odds of z_f = 1 under the prior
	flip := func(f int, delta float64) {
		zi[f] += delta
		s += 2*delta*w[f] + c.M[f*kc+f]
		r += -2*delta*u[f] + c.P[f*kc+f]
		mf, pf := c.M[f*kc:f*kc+k], c.P[f*kc:f*kc+k]
		for a := range w {
			w[a] += delta * mf[a]
			u[a] -= delta * pf[a]
		}
	}
	for start := 0; start < k; start += c.cfg.block {
		blk := fp[start:min(start+c.cfg.block, k)]
		nb := len(blk)
		// Move the block to the all-zero code, remembering where it was.
		orig, lp := 0, 0.0
		for j, f := range blk {
			mf := float64(c.m[f])
			lr[j] = math.Log(mf / (nf - mf))
			lp += math.Log((nf - mf) / nf)
			if zi[f] != 0 {
				orig |= 1 << j
				flip(f, -1)
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
				flip(blk[j], 1)
				lp += lr[j]
			} else {
				flip(blk[j], -1)
				lp -= lr[j]
			}
			code ^= 1 << j
			base = 1 + s + sing
			v := -hd*math.Log(base) - r*inv2s/base + lp
			ll[code] = v
			best = math.Max(best, v)
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
		for j, f := range blk {
			if diff := (code ^ target) & (1 << j); diff != 0 {
				if target&(1<<j) != 0 {
					flip(f, 1)
				} else {
					flip(f, -1)
				}
			}
			if diff := (orig ^ target) & (1 << j); diff != 0 {
				delta := -1.0
				if target&(1<<j) != 0 {
					delta = 1
				}
				hf := c.H[f*d : f*d+d]
				for q, v := range hf {
					e[q] -= delta * v
				}
			}
		}
		// Resynchronise r and u with e, which the flips above did not touch.
		r = 0
		for _, v := range e {
			r += v * v
		}
		c.refreshU()
	}
	return s, r
}

// refreshU sets u = He.
func (c *ibpChain) refreshU() {
	k, d := c.k, c.d
	for a := 0; a < k; a++ {
		ha := c.H[a*d : a*d+d]
		var v float64
		for j, x := range ha {
			v += x * c.e[j]
		}
		c.u[a] = v
	}
}
