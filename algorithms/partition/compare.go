package partition

import "math"

// contingency returns the contingency table of two labelings of the same pixels as a
// dense ra×rb row-major table with its row and column sums. Labels are first renumbered
// densely, so the table has only as many rows and columns as labels are used.
func contingency(a, b []int32) (table []float64, ra, rb int, rowSum, colSum []float64) {
	da, ra := Compact(a)
	db, rb := Compact(b)
	table = make([]float64, ra*rb)
	rowSum = make([]float64, ra)
	colSum = make([]float64, rb)
	for i := range da {
		table[int(da[i])*rb+int(db[i])]++
		rowSum[da[i]]++
		colSum[db[i]]++
	}
	return table, ra, rb, rowSum, colSum
}

// joinedPairs counts the pairs of items two partitions both put in one part, a does,
// and b does: Σ C(n_ij, 2), Σ C(a_i, 2), Σ C(b_j, 2) over the contingency table.
func joinedPairs(a, b []int32) (both, inA, inB float64) {
	table, _, _, rowSum, colSum := contingency(a, b)
	for _, v := range table {
		both += pairs(v)
	}
	for _, v := range rowSum {
		inA += pairs(v)
	}
	for _, v := range colSum {
		inB += pairs(v)
	}
	return both, inA, inB
}

// pairs is n choose 2.
func pairs(n float64) float64 { return n * (n - 1) / 2 }

// RandIndex is the fraction of pixel pairs on which two segmentations agree: both put
// the pair in one segment or both split it (Rand 1971). Label values are arbitrary; only
// which pixels share a label matters. It is computed from the contingency table in
// O(N + labels²). Segmentations of fewer than two pixels agree trivially (1); of
// different lengths they cannot be compared and give 0.
func RandIndex(a, b []int32) float64 {
	if len(a) != len(b) {
		return 0
	}
	n := float64(len(a))
	if len(a) < 2 {
		return 1
	}
	same, sa, sb := joinedPairs(a, b)
	// Agreeing pairs: all pairs, minus those joined in a but not b and in b but not a.
	total := pairs(n)
	return (total - sa - sb + 2*same) / total
}

// ProbabilisticRandIndex is the probabilistic Rand index of a segmentation against
// several reference segmentations of the same image (Unnikrishnan, Pantofaru & Hebert
// 2007): the fraction of pixel pairs on which seg agrees with the references, weighting
// each pair by the share of references that join (or split) it. Because that share
// enters linearly it equals the mean Rand index against the references. With no
// references, or one of a different length, it is 0.
func ProbabilisticRandIndex(seg []int32, truths [][]int32) float64 {
	if len(truths) == 0 {
		return 0
	}
	var s float64
	for _, t := range truths {
		if len(t) != len(seg) {
			return 0
		}
		s += RandIndex(seg, t)
	}
	return s / float64(len(truths))
}

// VariationOfInformation is the variation of information between two segmentations
// (Meilă 2007), H(A|B) + H(B|A) in nats: 0 for identical partitions, at most ln N.
// It is computed from the contingency table in O(N + labels²). Segmentations of
// different lengths cannot be compared and give +Inf.
func VariationOfInformation(a, b []int32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	if len(a) == 0 {
		return 0
	}
	n := float64(len(a))
	table, _, rb, rowSum, colSum := contingency(a, b)
	var vi float64
	for i, v := range table {
		if v == 0 {
			continue
		}
		// −r_ij [ln(r_ij/p_i) + ln(r_ij/q_j)] with r = v/n, p = rowSum/n, q = colSum/n.
		vi -= v / n * (math.Log(v/rowSum[i/rb]) + math.Log(v/colSum[i%rb]))
	}
	return max(vi, 0) // rounding can leave −ε for identical partitions
}

// Compact renumbers labels densely, 0…n−1 in the order of first appearance, and returns
// them with n: the partition's number of parts, however its labels were numbered.
func Compact(labels []int32) ([]int32, int) {
	out := Number(labels)
	n := int32(0)
	for _, l := range out {
		n = max(n, l+1)
	}
	return out, int(n)
}

// Number gives every distinct value of items a part number, 0, 1, … in the order of
// first appearance: the partition of items by equal values (image codes, folder names).
func Number[T comparable](items []T) []int32 {
	ids := make(map[T]int32)
	out := make([]int32, len(items))
	for i, v := range items {
		id, ok := ids[v]
		if !ok {
			id = int32(len(ids))
			ids[v] = id
		}
		out[i] = id
	}
	return out
}

// NMI is the normalised mutual information of two partitions of the same items,
// I(A; B) / ((H(A) + H(B)) / 2) (Strehl & Ghosh 2002 with the arithmetic mean, the
// normalisation scikit-learn uses by default): 1 for the same partition however numbered,
// near 0 for independent ones. Two partitions that each put everything in one part
// agree, 1; when only one of them does, there is no information to share, 0. Partitions
// of different lengths cannot be compared and give 0.
func NMI(a, b []int32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	table, ra, rb, rowSum, colSum := contingency(a, b)
	n := float64(len(a))
	entropy := func(sums []float64) float64 {
		var h float64
		for _, s := range sums {
			if s > 0 {
				h -= s / n * math.Log(s/n)
			}
		}
		return h
	}
	ha, hb := entropy(rowSum), entropy(colSum)
	if ra == 1 && rb == 1 {
		return 1
	}
	if ha == 0 || hb == 0 {
		return 0
	}
	var mi float64
	for i := 0; i < ra; i++ {
		for j := 0; j < rb; j++ {
			if c := table[i*rb+j]; c > 0 {
				mi += c / n * math.Log(c*n/(rowSum[i]*colSum[j]))
			}
		}
	}
	return min(max(mi/((ha+hb)/2), 0), 1)
}

// AdjustedRandIndex is the Rand index corrected for chance (Hubert & Arabie 1985):
// (Σ C(n_ij, 2) − E) / (M − E), with E = Σ C(a_i, 2)·Σ C(b_j, 2) / C(n, 2) and M the mean
// of Σ C(a_i, 2) and Σ C(b_j, 2). It is 1 for the same partition, about 0 for a random
// one, and can be negative. When the expected and the largest agreement coincide (both
// partitions trivial: one part, or every item alone) it is 1 if they are the same and 0
// otherwise. Partitions of different lengths give 0.
func AdjustedRandIndex(a, b []int32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	sumTable, sumA, sumB := joinedPairs(a, b)
	expected := sumA * sumB / pairs(float64(len(a)))
	maxIndex := (sumA + sumB) / 2
	if maxIndex == expected {
		if sumTable == maxIndex {
			return 1
		}
		return 0
	}
	return (sumTable - expected) / (maxIndex - expected)
}
