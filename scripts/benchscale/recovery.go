package main

import (
	"fmt"
	"path"
)

// recovered returns the fraction of pictures on which K-features' features tell every
// object's presence right. Each object is matched to the learned feature, used as is or
// complemented (a base that shows the object with a subtractive feature is as good as an
// additive one), that agrees with it on the most pictures, each feature used once.
func recovered(f *folder, names, codes []string) (float64, error) {
	if len(names) != f.n || len(codes) != f.n {
		return 0, fmt.Errorf("%d names and %d codes for %d pictures", len(names), len(codes), f.n)
	}
	index := make(map[string]int, f.n)
	for i, name := range f.names {
		index[name] = i
	}
	k := len(codes[0])
	truth := make([][objects]bool, f.n)
	z := make([][]bool, f.n)
	for i, name := range names {
		j, ok := index[path.Base(name)]
		if !ok {
			return 0, fmt.Errorf("unknown picture %s", name)
		}
		truth[i] = f.truth[j]
		z[i] = make([]bool, k)
		for c := range k {
			z[i][c] = codes[i][c] == '1'
		}
	}
	// Greedy matching by agreement: the best (object, feature, polarity) first.
	used := make([]bool, k)
	match := [objects]int{}
	flip := [objects]bool{}
	done := [objects]bool{}
	for range objects {
		best, bo, bf, bflip := -1, 0, 0, false
		for o := range objects {
			if done[o] {
				continue
			}
			for c := range k {
				if used[c] {
					continue
				}
				agree := 0
				for i := range z {
					if z[i][c] == truth[i][o] {
						agree++
					}
				}
				if agree > best {
					best, bo, bf, bflip = agree, o, c, false
				}
				if f.n-agree > best {
					best, bo, bf, bflip = f.n-agree, o, c, true
				}
			}
		}
		if best < 0 {
			return 0, fmt.Errorf("%d features for %d objects", k, objects)
		}
		done[bo], used[bf], match[bo], flip[bo] = true, true, bf, bflip
	}
	right := 0
	for i := range z {
		ok := true
		for o := range objects {
			if z[i][match[o]] != flip[o] == truth[i][o] {
				continue
			}
			ok = false
		}
		if ok {
			right++
		}
	}
	return float64(right) / float64(f.n), nil
}
