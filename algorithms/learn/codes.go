package learn

import "gonum.org/v1/gonum/mat"

// Codes returns each row of the binary allocation Z as a string of 0s and 1s, one
// character per feature, e.g. "10110": row n owns feature k when Z[n,k] ≠ 0. A nil Z
// gives nil.
func Codes(Z *mat.Dense) []string {
	if Z == nil || Z.IsEmpty() {
		return nil
	}
	n, k := Z.Dims()
	out := make([]string, n)
	buf := make([]byte, k)
	for i := 0; i < n; i++ {
		for j, v := range Z.RawRowView(i) {
			buf[j] = '0'
			if v != 0 {
				buf[j] = '1'
			}
		}
		out[i] = string(buf)
	}
	return out
}
