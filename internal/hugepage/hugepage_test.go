package hugepage

import "testing"

// TestAdviseKeepsTheData: advising a buffer, small or large, at any alignment, changes
// none of its contents and leaves it writable.
func TestAdviseKeepsTheData(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3 << 20, 5<<20 + 3} {
		b := make([]float32, n)
		for i := range b {
			b[i] = float32(i % 251)
		}
		for _, off := range []int{0, 1} {
			if off > len(b) {
				continue
			}
			Advise(b[off:])
		}
		for i := range b {
			if b[i] != float32(i%251) {
				t.Fatalf("n=%d: b[%d] = %v after Advise", n, i, b[i])
			}
			b[i] = 0
		}
	}
}
