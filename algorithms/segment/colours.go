package segment

import "math"

// Shared colour models. In the paper every stick c carries its own θ_c drawn from the
// base measure G0. Here the base measure is itself discrete, G0 ~ DP(γ, NW): a
// cluster's θ_c is one of a few colour models (atoms), so several located clusters —
// several segments — can share one colour. The atom a cluster points to is a point
// estimate chosen by the bound, as the locations are; q(θ_a) is fitted to the pooled
// statistics of the clusters pointing to a; the bound counts each atom's KL once, and
// the pointers' prior is the Chinese-restaurant partition of the located clusters
// (atomPrior).
//
// Why: a cluster is a colour at a location, and a photo often shows one colour in
// separate places (a row of lanterns, patches of water between trees). With a colour
// model per cluster, the bound refused to part such a piece into a cluster of its own:
// the second Normal–Wishart's KL and its covariance prior cost more than the stick terms
// gained. With the colour shared, the split costs only what it changes — the sticks and
// the pointers' prior — and the spatial prior alone decides it. On the BSDS500 train
// photos sharing colours scores a higher PRI with every seed (docs/DESIGN.md,
// "Measurements behind the code").

// atomConcentration is γ of the colour models' DP: the pointers' prior favours sharing
// by ln n for an atom of n clusters, a few nats against the hundreds a colour model's
// KL costs.
const atomConcentration = 1.0

// atomSets returns the clusters pointing to every atom, by atom id (an id no cluster
// points to has none).
func (m *kpyp) atomSets() [][]int {
	sets := make([][]int, m.C)
	for c, a := range m.atom {
		sets[a] = append(sets[a], c)
	}
	return sets
}

// members returns the clusters pointing to atom a under the pointers atom.
func members(atom []int, a int) []int {
	var set []int
	for c, b := range atom {
		if b == a {
			set = append(set, c)
		}
	}
	return set
}

// isTail reports whether set is the last component's atom, which no other cluster
// shares and whose q(θ) stays at the prior (tailStats).
func (m *kpyp) isTail(set []int) bool { return len(set) == 1 && set[0] == m.C-1 }

// setStats returns the summed statistics in tot (laid out as a pass's) of the clusters
// of set.
func (m *kpyp) setStats(tot []float64, set []int) (float64, []float64, []float64) {
	C, D := m.C, m.D
	s0 := tot[accStats : accStats+C]
	s1 := tot[accStats+C : accStats+C+C*D]
	s2 := tot[accStats+C+C*D:]
	n, m1, m2 := 0.0, make([]float64, D), make([]float64, D*D)
	for _, c := range set {
		n += s0[c]
		for i := range m1 {
			m1[i] += s1[c*D+i]
		}
		for i := range m2 {
			m2[i] += s2[c*D*D+i]
		}
	}
	return n, m1, m2
}

// atomPrior is ln p(pointers): the exchangeable partition probability of the located
// clusters' pointers under DP(γ) (the last component has none),
// A ln γ + Σ_a ln Γ(n_a) + ln Γ(γ) − ln Γ(γ + C − 1).
func atomPrior(atom []int) float64 {
	located := len(atom) - 1
	n := make([]int, len(atom))
	for _, a := range atom[:located] {
		n[a]++
	}
	s := lgamma(atomConcentration) - lgamma(atomConcentration+float64(located))
	for _, k := range n {
		if k > 0 {
			s += math.Log(atomConcentration) + lgamma(float64(k))
		}
	}
	return s
}

// freeAtom returns an atom id that no cluster but e points to: e's own if it is alone,
// else one no cluster points to (there is one, since C ids serve C clusters and e's
// atom has two).
func freeAtom(atom []int, e int) int {
	if len(members(atom, atom[e])) == 1 {
		return atom[e]
	}
	used := make([]bool, len(atom))
	for _, a := range atom {
		used[a] = true
	}
	for a, u := range used {
		if !u {
			return a
		}
	}
	return atom[e]
}
