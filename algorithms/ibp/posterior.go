package ibp

import (
	"math/bits"

	"gonum.org/v1/gonum/mat"
)

// samples holds the second-half allocations of one chain, each column of Z a bitset of
// its owners: ⌈N/64⌉ words a feature, so 500 sweeps of 400 images at K = 40 take 1.1 MB.
type samples struct {
	words int
	cols  [][]uint64 // per sweep: K×words, feature-major
	ks    []int
}

func newSamples(n int) *samples { return &samples{words: (n + 63) / 64} }

// add records the chain's current Z.
func (s *samples) add(c *chain) {
	w := s.words
	cols := make([]uint64, c.k*w)
	for i := 0; i < c.n; i++ {
		zi := c.z[i*c.kc : i*c.kc+c.k]
		for f, v := range zi {
			if v != 0 {
				cols[f*w+i/64] |= 1 << (i % 64)
			}
		}
	}
	s.cols = append(s.cols, cols)
	s.ks = append(s.ks, c.k)
}

// ownership is, for every row i and every column f of the reported Z (N×K, flat), the
// share of the recorded samples in which i owns the feature matched to f. The IBP's
// features have no labels across sweeps (they are born, die and swap places), so each
// sample's features are matched to Z's by their owners: the pair that disagree on the
// fewest rows first, then the next among the rest, as long as a pair agree on more rows
// than they disagree; a feature of Z left unmatched in a sample is owned by no row in it.
func (s *samples) ownership(z []float64, n, k int) *mat.Dense {
	if k == 0 || len(s.cols) == 0 {
		return &mat.Dense{}
	}
	w := s.words
	ref := make([]uint64, k*w)
	for i := 0; i < n; i++ {
		for f := 0; f < k; f++ {
			if z[i*k+f] != 0 {
				ref[f*w+i/64] |= 1 << (i % 64)
			}
		}
	}
	p := mat.NewDense(n, k, nil)
	pd := p.RawMatrix().Data
	var dist []int
	usedF, usedG := make([]bool, k), []bool(nil)
	for t, cols := range s.cols {
		ks := s.ks[t]
		dist = dist[:0]
		for f := 0; f < k; f++ {
			for g := 0; g < ks; g++ {
				d := 0
				for q := 0; q < w; q++ {
					d += bits.OnesCount64(ref[f*w+q] ^ cols[g*w+q])
				}
				dist = append(dist, d)
			}
		}
		clear(usedF)
		usedG = append(usedG[:0], make([]bool, ks)...)
		for range min(k, ks) {
			bf, bg, bd := -1, -1, n
			for f := 0; f < k; f++ {
				if usedF[f] {
					continue
				}
				for g := 0; g < ks; g++ {
					if !usedG[g] && dist[f*ks+g] < bd {
						bf, bg, bd = f, g, dist[f*ks+g]
					}
				}
			}
			if bf < 0 || 2*bd >= n {
				break
			}
			usedF[bf], usedG[bg] = true, true
			col := cols[bg*w : bg*w+w]
			for i := 0; i < n; i++ {
				if col[i/64]&(1<<(i%64)) != 0 {
					pd[i*k+bf]++
				}
			}
		}
	}
	inv := 1 / float64(len(s.cols))
	for i := range pd {
		pd[i] *= inv
	}
	return p
}
